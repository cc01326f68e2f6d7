/**
 * One file chosen on /import: read by the server (which tells its kind by its content and
 * proposes the person it names), previewed — its kind, its 'Person', the counts per record
 * type, what is skipped and why, the rows that could not be read — and written only on
 * 'Import'. Choosing another person, or another span of days, previews again; 'Cancel'
 * writes nothing. A file that names a patient no one here matches offers 'New family
 * member: {name}'; a chosen person who is not the file's patient is said, not hidden.
 */
import { FileUp } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { IMPORT_KIND_LABELS } from '../../../shared/imports';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { errorMessage } from '../../lib/toast';
import { ChangedChoiceField, ImportCountList, SkippedList } from './import-counts';
import {
  ImportedCounts,
  ImportPersonField,
  ImportProblems,
  ImportSpanFields,
  PatientLine,
  ProgressLine,
} from './file-import-parts';
import { useFileImport, type ChosenFile } from './use-file-import';

export function FileImportCard({ chosen, onCancel }: { chosen: ChosenFile; onCancel: () => void }) {
  const { t } = useTranslation();
  const { file } = chosen;
  const ids = useId();
  const fileImport = useFileImport(chosen);
  const { data, done, busy, progress, preview, write, wholeAccount } = fileImport;

  const heading = (
    <div className="flex items-start gap-3">
      <FileUp className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
      <div className="min-w-0">
        <h3 id={`${ids}-title`} className="font-semibold break-words">
          {file.name}
        </h3>
        {data ? <p className="text-sm">{t(IMPORT_KIND_LABELS[data.kind])}</p> : null}
      </div>
    </div>
  );

  if (done) {
    return (
      <Card className="grid gap-2 p-4" aria-labelledby={`${ids}-title`} role="group">
        {heading}
        <ImportedCounts done={done} />
        <div>
          <Button type="button" variant="outline" onClick={onCancel}>
            {t('Close')}
          </Button>
        </div>
      </Card>
    );
  }

  return (
    <Card className="grid gap-3 p-4" aria-labelledby={`${ids}-title`} role="group">
      {heading}
      {preview.isError ? (
        <p role="alert" className="text-sm font-medium text-destructive">
          {errorMessage(preview.error)}
        </p>
      ) : !data ? (
        <ProgressLine progress={progress} />
      ) : (
        <>
          {data.patient ? <PatientLine patient={data.patient} /> : null}
          {wholeAccount ? (
            <p className="text-sm text-muted-foreground">
              {t('Your whole account: its family members and everyone’s records.')}
            </p>
          ) : (
            <ImportPersonField id={ids} newMember={data.new_member} fileImport={fileImport} />
          )}
          {data.mismatch ? (
            <p role="alert" className="rounded-lg bg-destructive-soft p-3 text-sm font-medium">
              {data.mismatch}
            </p>
          ) : null}
          {data.kind === 'apple-health' ? (
            <ImportSpanFields
              id={ids}
              from={fileImport.from}
              to={fileImport.to}
              setFrom={fileImport.setFrom}
              setTo={fileImport.setTo}
              disabled={busy}
            />
          ) : null}
          {busy ? (
            <ProgressLine progress={progress} />
          ) : (
            <p className="text-sm font-medium">{data.summary}</p>
          )}
          <ImportCountList counts={data.counts} />
          <SkippedList skipped={data.skipped} />
          {data.problems.length > 0 ? (
            <ImportProblems
              id={ids}
              problems={data.problems}
              confirmed={fileImport.confirmProblems}
              onConfirm={fileImport.setConfirmProblems}
            />
          ) : null}
          {data.totals.changed > 0 ? (
            <ChangedChoiceField
              value={fileImport.changed}
              onChange={fileImport.setChanged}
              disabled={busy}
            />
          ) : null}
          {write.isError ? (
            <p role="alert" className="text-sm font-medium text-destructive">
              {errorMessage(write.error)}
            </p>
          ) : null}
        </>
      )}
      <div className="flex flex-wrap gap-3">
        {data ? (
          <Button
            type="button"
            onClick={() => write.mutate()}
            disabled={busy || fileImport.needsPerson || fileImport.needsConfirm}
          >
            {write.isPending ? t('Importing...') : t('Import')}
          </Button>
        ) : null}
        <Button type="button" variant="outline" onClick={onCancel} disabled={write.isPending}>
          {t('Cancel')}
        </Button>
      </div>
    </Card>
  );
}
