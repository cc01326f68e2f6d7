/**
 * 'Import History': each file brought in (date, file, person, what it added), newest first,
 * with 'Undo import' while it can be undone (UNDO_DAYS): after a confirm, it removes what
 * that import added and nothing else — not what was already here, not what has been edited
 * since — and says so ('Import undone').
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Undo2 } from 'lucide-react';
import { useState } from 'react';
import { formatDate, LONG_DATE_FORMAT } from '../../../shared/dates';
import { IMPORT_KIND_LABELS, UNDO_DAYS, type ImportHistoryEntry } from '../../../shared/imports';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Loading } from '../../components/ui/feedback';
import { importsApi } from '../../lib/api';
import { queryKeys } from '../../lib/query-client';
import { showError, showSuccess } from '../../lib/toast';
import { typeName } from './import-counts';

const added = (entry: ImportHistoryEntry) =>
  Object.values(entry.counts).reduce((sum, count) => sum + count, 0);

function countsLine(counts: Record<string, number>): string {
  const parts = Object.entries(counts)
    .filter(([, count]) => count > 0)
    .map(([type, count]) => `${typeName(type)}: ${count}`);
  return parts.length > 0 ? parts.join(', ') : 'Nothing new';
}

function HistoryEntry({
  entry,
  onUndo,
}: {
  entry: ImportHistoryEntry;
  onUndo: (entry: ImportHistoryEntry) => void;
}) {
  return (
    <li className="grid gap-1 py-3">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <span className="font-medium break-all">{entry.file_name}</span>
        <span className="text-sm text-muted-foreground">
          {formatDate(entry.created_at, LONG_DATE_FORMAT)}
        </span>
      </div>
      <p className="text-sm text-muted-foreground">
        {IMPORT_KIND_LABELS[entry.kind]} · {entry.person ? entry.person.name : 'Whole account'}
      </p>
      <p className="text-sm">{countsLine(entry.counts)}</p>
      {entry.undone_at ? (
        <p className="text-sm font-medium">
          Undone on {formatDate(entry.undone_at, LONG_DATE_FORMAT)}
        </p>
      ) : entry.can_undo ? (
        <div>
          <Button type="button" variant="outline" size="sm" onClick={() => onUndo(entry)}>
            <Undo2 aria-hidden="true" />
            Undo import
          </Button>
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">Imports can be undone for {UNDO_DAYS} days.</p>
      )}
    </li>
  );
}

export function ImportHistory() {
  const queryClient = useQueryClient();
  const history = useQuery({ queryKey: queryKeys.imports, queryFn: importsApi.history });
  const [undoing, setUndoing] = useState<ImportHistoryEntry | null>(null);
  const undo = useMutation({
    mutationFn: (entry: ImportHistoryEntry) => importsApi.undo(entry.id),
    onSuccess: (answer) => {
      setUndoing(null);
      showSuccess({
        title: 'Import undone',
        description:
          `${answer.removed} ${answer.removed === 1 ? 'record' : 'records'} removed.` +
          (answer.kept_edited > 0
            ? ` ${answer.kept_edited} edited since the import ${answer.kept_edited === 1 ? 'was' : 'were'} kept.`
            : ''),
      });
      void queryClient.invalidateQueries();
    },
    onError: (error) => showError('Could not undo the import', error),
  });

  return (
    <section aria-labelledby="import-history" className="mt-6">
      <h2 id="import-history" className="mb-2 text-lg font-semibold">
        Import History
      </h2>
      <Card className="px-4">
        {history.isPending ? (
          <Loading />
        ) : history.isError ? (
          <p role="alert" className="py-4 text-sm">
            Import History could not be loaded.
          </p>
        ) : history.data.length === 0 ? (
          <p className="py-4 text-sm text-muted-foreground">No imports yet.</p>
        ) : (
          <ul className="divide-y divide-border">
            {history.data.map((entry) => (
              <HistoryEntry key={entry.id} entry={entry} onUndo={setUndoing} />
            ))}
          </ul>
        )}
      </Card>
      <ConfirmDialog
        open={undoing !== null}
        onOpenChange={(open) => {
          if (!open) setUndoing(null);
        }}
        title="Undo this import?"
        description={
          undoing
            ? `This removes the ${added(undoing)} ${added(undoing) === 1 ? 'record' : 'records'} that ${undoing.file_name} added${undoing.person ? ` to ${undoing.person.name}` : ''}. What was already here, and anything edited since, stays.`
            : ''
        }
        confirmLabel="Undo import"
        pendingLabel="Undoing..."
        pending={undo.isPending}
        onConfirm={() => {
          if (undoing) undo.mutate(undoing);
        }}
      />
    </section>
  );
}
