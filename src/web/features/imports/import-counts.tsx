/**
 * What an import would do, before anything is written: per record type, '{n} new, {n}
 * already here, {n} changed'; what the file holds that is not brought in, and why; and, when
 * some records are changed, whether to keep what is here or replace it with the file's.
 */
import { useId } from 'react';
import type { ChangedChoice, ImportCounts } from '../../../shared/import-preview';
import { definitionsByType } from '../../../shared/records';
import type { RecordType } from '../../../shared/records/definition';

/** A record type's plural, as the preview and Import History name it. */
export function typeName(type: string): string {
  if (type === 'family_member') return 'Family Members';
  if (type === 'document') return 'Documents';
  return definitionsByType[type as RecordType]?.plural ?? type;
}

export function ImportCountList({ counts }: { counts: ImportCounts }) {
  const entries = Object.entries(counts);
  if (entries.length === 0) return <p className="text-sm">The file holds no records to import.</p>;
  return (
    <ul className="grid gap-1 text-sm">
      {entries.map(([type, tally]) => (
        <li key={type}>
          {typeName(type)}: {tally.new} new, {tally.already_here} already here, {tally.changed}{' '}
          changed
        </li>
      ))}
    </ul>
  );
}

/** 'Not imported: 3 Procedures (no record type of Kin Health holds them)' per kind skipped. */
export function SkippedList({ skipped }: { skipped: Record<string, number> }) {
  const entries = Object.entries(skipped).sort(([, a], [, b]) => b - a);
  if (entries.length === 0) return null;
  return (
    <div className="text-sm">
      <p className="font-medium">Not imported</p>
      <ul className="mt-1 list-disc pl-5 text-muted-foreground">
        {entries.map(([what, count]) => (
          <li key={what}>
            {what}: {count}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function ChangedChoiceField({
  value,
  onChange,
  disabled,
}: {
  value: ChangedChoice;
  onChange: (value: ChangedChoice) => void;
  disabled?: boolean;
}) {
  const name = useId();
  const choices: { value: ChangedChoice; label: string }[] = [
    { value: 'keep', label: 'Keep what is here' },
    { value: 'replace', label: 'Replace with the file’s' },
  ];
  return (
    <fieldset>
      <legend className="text-sm font-medium">Changed records</legend>
      <div className="mt-1 flex flex-col gap-1 sm:flex-row sm:gap-4">
        {choices.map((choice) => (
          <label key={choice.value} className="flex min-h-11 items-center gap-2 text-sm">
            <input
              type="radio"
              name={name}
              value={choice.value}
              checked={value === choice.value}
              onChange={() => onChange(choice.value)}
              disabled={disabled}
            />
            {choice.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
