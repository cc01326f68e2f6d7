/**
 * 'Import History': each file brought in (date, file, person, what it added), newest first,
 * with 'Undo import' while it can be undone (UNDO_DAYS): after a confirm, it removes what
 * that import added and nothing else — not what was already here, not what has been edited
 * since — and says so ('Import undone').
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Undo2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, LONG_DATE_FORMAT } from '../../../shared/dates';
import { tr } from '../../../shared/i18n/translate';
import { IMPORT_KIND_LABELS, UNDO_DAYS, type ImportHistoryEntry } from '../../../shared/imports';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Loading } from '../../components/ui/feedback';
import { importsApi } from './imports-api';
import { queryKeys } from '../../lib/query-client';
import { showError, showSuccess } from '../../lib/toast';
import { typeName } from './import-counts';

const added = (entry: ImportHistoryEntry) =>
  Object.values(entry.counts).reduce((sum, count) => sum + count, 0);

function countsLine(counts: Record<string, number>): string {
  const parts = Object.entries(counts)
    .filter(([, count]) => count > 0)
    .map(([type, count]) => tr('{type}: {number}', { type: typeName(type), number: count }));
  return parts.length > 0 ? parts.join(', ') : tr('Nothing new');
}

function HistoryEntry({
  entry,
  onUndo,
}: {
  entry: ImportHistoryEntry;
  onUndo: (entry: ImportHistoryEntry) => void;
}) {
  const { t } = useTranslation();
  return (
    <li className="grid gap-1 py-3">
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <span className="font-medium break-all">{entry.file_name}</span>
        <span className="text-sm text-muted-foreground">
          {formatDate(entry.created_at, LONG_DATE_FORMAT)}
        </span>
      </div>
      <p className="text-sm text-muted-foreground">
        {t(IMPORT_KIND_LABELS[entry.kind])} ·{' '}
        {entry.person ? entry.person.name : t('Whole account')}
      </p>
      <p className="text-sm">{countsLine(entry.counts)}</p>
      {entry.undone_at ? (
        <p className="text-sm font-medium">
          {t('Undone on {date}', { date: formatDate(entry.undone_at, LONG_DATE_FORMAT) })}
        </p>
      ) : entry.can_undo ? (
        <div>
          <Button type="button" variant="outline" size="sm" onClick={() => onUndo(entry)}>
            <Undo2 aria-hidden="true" />
            {t('Undo import')}
          </Button>
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">
          {t('Imports can be undone for {count} days.', { count: UNDO_DAYS })}
        </p>
      )}
    </li>
  );
}

/** What undoing an import removes, as its confirm says. */
function undoDescription(entry: ImportHistoryEntry): string {
  const values = { count: added(entry), file: entry.file_name };
  return entry.person
    ? tr(
        'This removes the {count} records that {file} added to {name}. What was already here, and anything edited since, stays.',
        { ...values, name: entry.person.name },
      )
    : tr(
        'This removes the {count} records that {file} added. What was already here, and anything edited since, stays.',
        values,
      );
}

export function ImportHistory() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const history = useQuery({ queryKey: queryKeys.imports, queryFn: importsApi.history });
  const [undoing, setUndoing] = useState<ImportHistoryEntry | null>(null);
  const undo = useMutation({
    mutationFn: (entry: ImportHistoryEntry) => importsApi.undo(entry.id),
    onSuccess: (answer) => {
      setUndoing(null);
      showSuccess({
        title: t('Import undone'),
        description:
          t('{count} records removed.', { count: answer.removed }) +
          (answer.kept_edited > 0
            ? ` ${t('{count} edited since the import were kept.', { count: answer.kept_edited })}`
            : ''),
      });
      void queryClient.invalidateQueries();
    },
    onError: (error) => showError(t('Could not undo the import'), error),
  });

  return (
    <section aria-labelledby="import-history" className="mt-6">
      <h2 id="import-history" className="mb-2 text-lg font-semibold">
        {t('Import History')}
      </h2>
      <Card className="px-4">
        {history.isPending ? (
          <Loading />
        ) : history.isError ? (
          <p role="alert" className="py-4 text-sm">
            {t('Import History could not be loaded.')}
          </p>
        ) : history.data.length === 0 ? (
          <p className="py-4 text-sm text-muted-foreground">{t('No imports yet.')}</p>
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
        title={t('Undo this import?')}
        description={undoing ? undoDescription(undoing) : ''}
        confirmLabel={t('Undo import')}
        pendingLabel={t('Undoing...')}
        pending={undo.isPending}
        onConfirm={() => {
          if (undoing) undo.mutate(undoing);
        }}
      />
    </section>
  );
}
