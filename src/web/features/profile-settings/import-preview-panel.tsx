/**
 * What an import would do, shown before anything is written: '23 new, 41 already here,
 * 2 changed' and the same per record type; when some records are changed, whether to keep
 * what is here or replace it with the file's. 'Import' writes what the user confirmed,
 * 'Cancel' writes nothing.
 */
import { useId, useState } from 'react';
import type { ChangedChoice, ImportPreview } from '../../../shared/import-preview';
import { definitionsByType } from '../../../shared/records';
import type { RecordType } from '../../../shared/records/definition';
import { Button } from '../../components/ui/button';

function typeName(type: string): string {
  if (type === 'family_member') return 'Family Members';
  if (type === 'document') return 'Documents';
  return definitionsByType[type as RecordType]?.plural ?? type;
}

export function ImportPreviewPanel({
  preview,
  forWhom,
  busy,
  onConfirm,
  onCancel,
}: {
  preview: ImportPreview;
  /** 'For Leo', when the file's records go to a chosen person. */
  forWhom: string | null;
  busy: boolean;
  onConfirm: (changed: ChangedChoice) => void;
  onCancel: () => void;
}) {
  const headingId = useId();
  const [changed, setChanged] = useState<ChangedChoice>('keep');
  const choices: { value: ChangedChoice; label: string }[] = [
    { value: 'keep', label: 'Keep what is here' },
    { value: 'replace', label: 'Replace with the file’s' },
  ];
  return (
    <section aria-labelledby={headingId} className="mt-4 rounded-md border p-4">
      <h3 id={headingId} className="text-sm font-semibold">
        Import preview
      </h3>
      <p className="mt-1 text-sm">
        {forWhom ? `${forWhom}: ` : ''}
        {preview.summary}
      </p>
      <ul className="mt-2 text-sm text-muted-foreground">
        {Object.entries(preview.counts).map(([type, tally]) => (
          <li key={type}>
            {typeName(type)}: {tally.new} new, {tally.already_here} already here, {tally.changed}{' '}
            changed
          </li>
        ))}
      </ul>
      {preview.totals.changed > 0 && (
        <fieldset className="mt-3">
          <legend className="text-sm font-medium">Changed records</legend>
          <div className="mt-1 flex flex-col gap-1 sm:flex-row sm:gap-4">
            {choices.map((choice) => (
              <label key={choice.value} className="flex min-h-11 items-center gap-2 text-sm">
                <input
                  type="radio"
                  name={`${headingId}-changed`}
                  value={choice.value}
                  checked={changed === choice.value}
                  onChange={() => setChanged(choice.value)}
                />
                {choice.label}
              </label>
            ))}
          </div>
        </fieldset>
      )}
      <div className="mt-3 flex gap-3">
        <Button type="button" onClick={() => onConfirm(changed)} disabled={busy}>
          {busy ? 'Importing...' : 'Import'}
        </Button>
        <Button type="button" variant="outline" onClick={onCancel} disabled={busy}>
          Cancel
        </Button>
      </div>
    </section>
  );
}
