/**
 * What an import would do, before anything is written: per record type, '{n} new, {n}
 * already here, {n} changed'; what the file holds that is not brought in, and why; and, when
 * some records are changed, whether to keep what is here or replace it with the file's.
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChangedChoice, ImportCounts } from '../../../shared/import-preview';
import { tr } from '../../../shared/i18n/translate';
import { definitionsByType } from '../../../shared/records';
import type { RecordType } from '../../../shared/records/definition';

/** A record type's plural, as the preview and Import History name it. */
export function typeName(type: string): string {
  if (type === 'family_member') return tr('Family Members');
  if (type === 'document') return tr('Documents');
  const plural = definitionsByType[type as RecordType]?.plural;
  return plural ? tr(plural) : type;
}

export function ImportCountList({ counts }: { counts: ImportCounts }) {
  const { t } = useTranslation();
  const entries = Object.entries(counts);
  if (entries.length === 0)
    return <p className="text-sm">{t('The file holds no records to import.')}</p>;
  return (
    <ul className="grid gap-1 text-sm">
      {entries.map(([type, tally]) => (
        <li key={type}>
          {t('{type}: {new} new, {already} already here, {changed} changed', {
            type: typeName(type),
            new: tally.new,
            already: tally.already_here,
            changed: tally.changed,
          })}
        </li>
      ))}
    </ul>
  );
}

/** 'Not imported: 3 Procedures (no record type of Kin Health holds them)' per kind skipped. */
export function SkippedList({ skipped }: { skipped: Record<string, number> }) {
  const { t } = useTranslation();
  const entries = Object.entries(skipped).sort(([, a], [, b]) => b - a);
  if (entries.length === 0) return null;
  return (
    <div className="text-sm">
      <p className="font-medium">{t('Not imported')}</p>
      <ul className="mt-1 list-disc ps-5 text-muted-foreground">
        {entries.map(([what, count]) => (
          <li key={what}>{t('{type}: {number}', { type: what, number: count })}</li>
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
  const { t } = useTranslation();
  const name = useId();
  const choices: { value: ChangedChoice; label: string }[] = [
    { value: 'keep', label: t('Keep what is here') },
    { value: 'replace', label: t('Replace with the file’s') },
  ];
  return (
    <fieldset>
      <legend className="text-sm font-medium">{t('Changed records')}</legend>
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
