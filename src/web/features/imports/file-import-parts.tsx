/**
 * The parts of a file's card on /import: the patient the file names, how far the file has
 * gone, the person its records are for, the span of days of an Apple Health export, the rows
 * that could not be read, and what an import added.
 */
import { useTranslation } from 'react-i18next';
import {
  NEW_MEMBER,
  type FileImportDone,
  type FileImportPreview,
  type RowProblem,
} from '../../../shared/imports';
import { Checkbox, Input, Label, Select } from '../../components/ui/input';
import type { ImportProgress } from './imports-api';
import type { useFileImport } from './use-file-import';

/** Problem rows listed; the rest are counted. */
const PROBLEMS_SHOWN = 20;

export function PatientLine({ patient }: { patient: NonNullable<FileImportPreview['patient']> }) {
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

/**
 * Where the file is: waiting its turn, on its way (with how much has gone), being read, or
 * waiting on the server for another import to finish.
 */
export function ProgressLine({ progress }: { progress: ImportProgress }) {
  const { t } = useTranslation();
  if (typeof progress === 'string') {
    const said = {
      waiting: () => t('Waiting for the files before it...'),
      reading: () => t('Reading the file...'),
      queued: () => t('Waiting for another import to finish...'),
    }[progress];
    return (
      <p role="status" className="text-sm text-muted-foreground">
        {said()}
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

/** The person the file's records are for: the one chosen, the file's match, or a new member. */
export function ImportPersonField({
  id,
  newMember,
  fileImport,
}: {
  id: string;
  newMember: FileImportPreview['new_member'];
  fileImport: Pick<
    ReturnType<typeof useFileImport>,
    'shownPerson' | 'persons' | 'busy' | 'setPerson'
  >;
}) {
  const { shownPerson: value, persons, busy: disabled, setPerson: onChange } = fileImport;
  const { t } = useTranslation();
  return (
    <div className="grid gap-1.5 sm:max-w-md">
      <Label htmlFor={`${id}-person`}>{t('Person')}</Label>
      <Select
        id={`${id}-person`}
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value)}
        disabled={disabled}
      >
        {value === '' ? <option value="">{t('Choose a person')}</option> : null}
        {persons.map((option) => (
          <option key={option.id} value={option.id}>
            {option.label}
          </option>
        ))}
        {newMember ? (
          <option value={NEW_MEMBER}>
            {t('New family member: {name}', { name: newMember.name })}
          </option>
        ) : null}
      </Select>
    </div>
  );
}

/** The span of days of an Apple Health export's measurements to import. */
export function ImportSpanFields({
  id,
  from,
  to,
  setFrom,
  setTo,
  disabled,
}: {
  id: string;
  from: string;
  to: string;
  setFrom: (day: string) => void;
  setTo: (day: string) => void;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="grid gap-2">
      <legend className="text-sm font-medium">
        {t('Measurements to import (empty: all of them)')}
      </legend>
      <div className="grid gap-3 sm:max-w-md sm:grid-cols-2">
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-from`}>{t('From')}</Label>
          <Input
            id={`${id}-from`}
            type="date"
            value={from}
            className="min-w-0"
            max={to || undefined}
            onChange={(event) => setFrom(event.target.value)}
            disabled={disabled}
          />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor={`${id}-to`}>{t('To')}</Label>
          <Input
            id={`${id}-to`}
            type="date"
            value={to}
            className="min-w-0"
            min={from || undefined}
            onChange={(event) => setTo(event.target.value)}
            disabled={disabled}
          />
        </div>
      </div>
    </fieldset>
  );
}

/** The rows that could not be read, the first of them listed, and the choice to import the rest. */
export function ImportProblems({
  id,
  problems,
  confirmed,
  onConfirm,
}: {
  id: string;
  problems: readonly RowProblem[];
  confirmed: boolean;
  onConfirm: (confirmed: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="grid gap-2 text-sm">
      <p className="font-medium">
        {t('{count} rows could not be read', { count: problems.length })}
      </p>
      <ul className="list-disc ps-5 text-muted-foreground">
        {problems.slice(0, PROBLEMS_SHOWN).map((problem) => (
          <li key={problem.line}>
            {t('Line {line}: {problem}', {
              line: problem.line,
              problem: problem.message,
            })}
          </li>
        ))}
        {problems.length > PROBLEMS_SHOWN ? (
          <li>{t('and {number} more', { number: problems.length - PROBLEMS_SHOWN })}</li>
        ) : null}
      </ul>
      <Checkbox
        id={`${id}-confirm`}
        label={t('Import the rows that could be read')}
        checked={confirmed}
        onChange={(event) => onConfirm(event.target.checked)}
      />
    </div>
  );
}

/** What an import added, and what it found already here or replaced. */
export function ImportedCounts({ done }: { done: FileImportDone }) {
  const { t } = useTranslation();
  return (
    <>
      <p role="status" className="font-medium">
        {t('Imported {count} records', { count: done.added })}
      </p>
      {done.already_here > 0 || done.replaced > 0 ? (
        <p className="text-sm text-muted-foreground">
          {[
            done.already_here > 0 ? t('{count} already here', { count: done.already_here }) : null,
            done.replaced > 0
              ? t('{count} replaced with the file’s', { count: done.replaced })
              : null,
          ]
            .filter(Boolean)
            .join(', ')}
        </p>
      ) : null}
    </>
  );
}
