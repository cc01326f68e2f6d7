/**
 * One file chosen on /import: read by the server (which tells its kind by its content and
 * proposes the person it names), previewed — its kind, its 'Person', the counts per record
 * type, what is skipped and why, the rows that could not be read — and written only on
 * 'Import'. Choosing another person, or another span of days, previews again; 'Cancel'
 * writes nothing. A file that names a patient no one here matches offers 'New family
 * member: {name}'; a chosen person who is not the file's patient is said, not hidden.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FileUp } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChangedChoice } from '../../../shared/import-preview';
import {
  IMPORT_KIND_LABELS,
  NEW_MEMBER,
  type FileImportDone,
  type FileImportPreview,
} from '../../../shared/imports';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Checkbox, Input, Label, Select } from '../../components/ui/input';
import { errorMessage } from '../../lib/toast';
import { importsApi, type ImportProgress } from './imports-api';
import { usePersons } from '../family-members/person-select';
import { ChangedChoiceField, ImportCountList, SkippedList } from './import-counts';

/** A file waiting on /import, with a key of its own (two files may share a name). */
export interface ChosenFile {
  key: string;
  file: File;
}

/** Problem rows listed; the rest are counted. */
const PROBLEMS_SHOWN = 20;

function PatientLine({ patient }: { patient: NonNullable<FileImportPreview['patient']> }) {
  const { t } = useTranslation();
  const parts = patient.name ? [patient.name] : [];
  if (patient.birth_date) parts.push(t('born {date}', { date: patient.birth_date }));
  if (patient.sex) parts.push(patient.sex);
  return (
    <p className="text-sm text-muted-foreground">
      {t('In the file: {patient}', { patient: parts.join(', ') })}
    </p>
  );
}

/** Where the file is: waiting its turn, on its way (with how much has gone), or being read. */
function ProgressLine({ progress }: { progress: ImportProgress }) {
  const { t } = useTranslation();
  if (progress === 'waiting' || progress === 'reading') {
    return (
      <p role="status" className="text-sm text-muted-foreground">
        {progress === 'waiting'
          ? t('Waiting for the files before it...')
          : t('Reading the file...')}
      </p>
    );
  }
  const percent = progress.total > 0 ? Math.floor((progress.sent / progress.total) * 100) : 0;
  return (
    <div role="status" className="grid gap-1 text-sm text-muted-foreground">
      <span>{t('Sending the file... {percent}%', { percent })}</span>
      <progress
        className="h-2 w-full accent-[var(--primary)]"
        max={100}
        value={percent}
        aria-label={t('Sending the file')}
      />
    </div>
  );
}

export function FileImportCard({ chosen, onCancel }: { chosen: ChosenFile; onCancel: () => void }) {
  const { t } = useTranslation();
  const { file } = chosen;
  const ids = useId();
  const queryClient = useQueryClient();
  const persons = usePersons();
  /** The person picked here; until then, the one the server proposes. */
  const [person, setPerson] = useState<string | undefined>();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [changed, setChanged] = useState<ChangedChoice>('keep');
  const [confirmProblems, setConfirmProblems] = useState(false);
  const [done, setDone] = useState<FileImportDone | null>(null);
  const [progress, setProgress] = useState<ImportProgress>('waiting');

  const preview = useQuery({
    queryKey: ['import-preview', chosen.key, person ?? '', from, to],
    queryFn: () => importsApi.preview(file, { person, from, to }, setProgress),
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
  const data = preview.data;
  // The select shows what the counts are for: the choice, the match, or the new member.
  const shownPerson =
    person ?? data?.person_id ?? (data?.new_member ? NEW_MEMBER : data ? '' : undefined);
  const wholeAccount = data?.kind === 'kin-health-export';

  const write = useMutation({
    mutationFn: () =>
      importsApi.importFile(
        file,
        {
          person: wholeAccount ? undefined : shownPerson,
          changed,
          confirm: confirmProblems,
          from,
          to,
        },
        setProgress,
      ),
    onSuccess: (answer) => {
      setDone(answer);
      void queryClient.invalidateQueries();
    },
  });
  const busy = preview.isFetching || write.isPending;
  const needsPerson = !wholeAccount && !shownPerson;
  const needsConfirm = (data?.problems.length ?? 0) > 0 && !confirmProblems;

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
        <p role="status" className="font-medium">
          {t('Imported {count} records', { count: done.added })}
        </p>
        {done.already_here > 0 || done.replaced > 0 ? (
          <p className="text-sm text-muted-foreground">
            {[
              done.already_here > 0
                ? t('{count} already here', { count: done.already_here })
                : null,
              done.replaced > 0
                ? t('{count} replaced with the file’s', { count: done.replaced })
                : null,
            ]
              .filter(Boolean)
              .join(', ')}
          </p>
        ) : null}
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
            <div className="grid gap-1.5 sm:max-w-md">
              <Label htmlFor={`${ids}-person`}>{t('Person')}</Label>
              <Select
                id={`${ids}-person`}
                value={shownPerson ?? ''}
                onChange={(event) => setPerson(event.target.value)}
                disabled={busy}
              >
                {shownPerson === '' ? <option value="">{t('Choose a person')}</option> : null}
                {persons.map((option) => (
                  <option key={option.id} value={option.id}>
                    {option.label}
                  </option>
                ))}
                {data.new_member ? (
                  <option value={NEW_MEMBER}>
                    {t('New family member: {name}', { name: data.new_member.name })}
                  </option>
                ) : null}
              </Select>
            </div>
          )}
          {data.mismatch ? (
            <p role="alert" className="rounded-lg bg-destructive-soft p-3 text-sm font-medium">
              {data.mismatch}
            </p>
          ) : null}
          {data.kind === 'apple-health' ? (
            <fieldset className="grid gap-2">
              <legend className="text-sm font-medium">
                {t('Measurements to import (empty: all of them)')}
              </legend>
              <div className="grid gap-3 sm:max-w-md sm:grid-cols-2">
                <div className="grid gap-1.5">
                  <Label htmlFor={`${ids}-from`}>{t('From')}</Label>
                  <Input
                    id={`${ids}-from`}
                    type="date"
                    value={from}
                    className="min-w-0"
                    max={to || undefined}
                    onChange={(event) => setFrom(event.target.value)}
                    disabled={busy}
                  />
                </div>
                <div className="grid gap-1.5">
                  <Label htmlFor={`${ids}-to`}>{t('To')}</Label>
                  <Input
                    id={`${ids}-to`}
                    type="date"
                    value={to}
                    className="min-w-0"
                    min={from || undefined}
                    onChange={(event) => setTo(event.target.value)}
                    disabled={busy}
                  />
                </div>
              </div>
            </fieldset>
          ) : null}
          {busy ? (
            <ProgressLine progress={progress} />
          ) : (
            <p className="text-sm font-medium">{data.summary}</p>
          )}
          <ImportCountList counts={data.counts} />
          <SkippedList skipped={data.skipped} />
          {data.problems.length > 0 ? (
            <div className="grid gap-2 text-sm">
              <p className="font-medium">
                {t('{count} rows could not be read', { count: data.problems.length })}
              </p>
              <ul className="list-disc ps-5 text-muted-foreground">
                {data.problems.slice(0, PROBLEMS_SHOWN).map((problem) => (
                  <li key={problem.line}>
                    {t('Line {line}: {problem}', {
                      line: problem.line,
                      problem: problem.message,
                    })}
                  </li>
                ))}
                {data.problems.length > PROBLEMS_SHOWN ? (
                  <li>
                    {t('and {number} more', { number: data.problems.length - PROBLEMS_SHOWN })}
                  </li>
                ) : null}
              </ul>
              <Checkbox
                id={`${ids}-confirm`}
                label={t('Import the rows that could be read')}
                checked={confirmProblems}
                onChange={(event) => setConfirmProblems(event.target.checked)}
              />
            </div>
          ) : null}
          {data.totals.changed > 0 ? (
            <ChangedChoiceField value={changed} onChange={setChanged} disabled={busy} />
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
            disabled={busy || needsPerson || needsConfirm}
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
