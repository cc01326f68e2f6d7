/**
 * 'Your data' in profile settings: download everything as one file, and bring such a file
 * back, into this account or another, after a preview of what is new, here or changed; download one person's records as FHIR R4, and bring a FHIR R4
 * Bundle into a person (CONTRACT.md §4). The one Person select says whose records both
 * FHIR actions are about.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Download, FileJson, Upload } from 'lucide-react';
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { IMPORT_TOO_LARGE, MAX_IMPORT_BYTES, isZip } from '../../../shared/data-export';
import { isFhirResource } from '../../../shared/fhir';
import type { ChangedChoice, ImportPreview } from '../../../shared/import-preview';
import { toasts } from '../../../shared/messages';
import { Button, buttonVariants } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { dataApi, type ImportBody } from '../../lib/api';
import { cn } from '../../lib/cn';
import { saveBlob } from '../../lib/save-file';
import { showError, showSuccess } from '../../lib/toast';
import { PersonSelect, usePersons } from '../family-members/person-select';
import { ImportPreviewPanel } from './import-preview-panel';

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

const NOT_JSON = 'The file is not a Kin Health export or a FHIR R4 Bundle (it is not JSON)';

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

interface PendingImport {
  /** The JSON's text, or the archive (a zip of the JSON and the documents' files) as it is. */
  body: ImportBody;
  /** The person a FHIR file's records go to; null for the product's own export. */
  personId: string | null;
  preview: ImportPreview;
}

export function YourDataSection() {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const queryClient = useQueryClient();
  const persons = usePersons();
  const [chosenPerson, setChosenPerson] = useState('');
  const personId = chosenPerson || persons[0]?.id || '';
  const [downloaded, setDownloaded] = useState<number | null>(null);

  /** A file read and previewed, waiting for the user to confirm or cancel. */
  const [pending, setPending] = useState<PendingImport | null>(null);
  const personLabel = (id: string) =>
    persons.find((p) => p.id === id)?.label ?? 'the chosen person';

  const previewFile = useMutation({
    mutationFn: async (file: File): Promise<PendingImport> => {
      // An archive is sent as it is (the server bounds it by the storage limit), never read here.
      if (isZip(new Uint8Array(await file.slice(0, 4).arrayBuffer()))) {
        return { body: file, personId: null, preview: await dataApi.previewImport(file, null) };
      }
      // Said at once, before a file of hundreds of MB is read into the page.
      if (file.size > MAX_IMPORT_BYTES) throw new Error(IMPORT_TOO_LARGE);
      const text = await file.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new Error(NOT_JSON);
      }
      const target = isFhirResource(json) ? personId : null;
      return { body: text, personId: target, preview: await dataApi.previewImport(text, target) };
    },
    onSuccess: setPending,
    onError: (error) => showError(toasts.error, error),
    onSettled: () => {
      if (input.current) input.current.value = '';
    },
  });

  const confirmImport = useMutation({
    mutationFn: ({ chosen, changed }: { chosen: PendingImport; changed: ChangedChoice }) =>
      dataApi.importFile(chosen.body, chosen.personId, changed),
    onSuccess: (answer) => {
      setPending(null);
      showSuccess(
        'format' in answer
          ? {
              title: 'Import complete',
              // Whose records they went into, said each time: the select sits further down.
              description: `For ${personLabel(pending?.personId ?? '')}: ${answer.summary}`,
            }
          : {
              title: 'Import complete',
              description: `${count(answer.family_members, 'family member')}${answer.documents > 0 ? `, ${count(answer.records, 'record')} and ${count(answer.documents, 'document')}` : ` and ${count(answer.records, 'record')}`} were added.${answer.already_here > 0 ? ` ${answer.already_here} already here.` : ''}${answer.replaced > 0 ? ` ${answer.replaced} replaced.` : ''}`,
            },
      );
      void queryClient.invalidateQueries();
    },
    onError: (error) => showError(toasts.error, error),
  });
  const importing = previewFile.isPending || confirmImport.isPending;

  const downloadExport = useMutation({
    mutationFn: () => dataApi.downloadExport(() => undefined),
    // A zip archive when the account has documents (their files beside the JSON).
    onSuccess: ({ blob, fileName }) =>
      saveBlob(
        blob,
        fileName ??
          (blob.type === 'application/zip' ? 'kin-health-export.zip' : 'kin-health-export.json'),
      ),
    onError: (error) => showError(toasts.error, error),
  });

  const downloadFhir = useMutation({
    mutationFn: () => {
      setDownloaded(0);
      return dataApi.downloadFhir(personId, setDownloaded);
    },
    onSuccess: ({ blob, fileName }) => saveBlob(blob, fileName ?? 'kin-health-fhir.json'),
    onError: (error) => showError(toasts.error, error),
    onSettled: () => setDownloaded(null),
  });

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file) previewFile.mutate(file);
  };

  return (
    <Card className="p-5">
      <h2 className="font-semibold">Your data</h2>
      <p className="mb-4 text-sm text-muted-foreground">
        Download your family members, every record and your documents as one file (a .zip archive
        when you have documents), to keep or to move to another Kin Health. Importing a file first
        shows what it holds that is new, already here or changed, and adds nothing twice.
      </p>
      <div className="flex flex-col gap-3 sm:flex-row">
        {/* A link to the file, fetched by the page: a refusal (an ended session) is told,
            where the browser's own download would end in silence. */}
        <a
          href={dataApi.exportUrl}
          download
          className={cn(
            buttonVariants({ variant: 'outline' }),
            downloadExport.isPending && 'pointer-events-none opacity-60',
          )}
          aria-disabled={downloadExport.isPending || undefined}
          onClick={(event) => {
            event.preventDefault();
            if (!downloadExport.isPending) downloadExport.mutate();
          }}
        >
          <Download aria-hidden="true" />
          Download my data
        </a>
        <label
          htmlFor={inputId}
          className={cn(
            buttonVariants({ variant: 'outline' }),
            'cursor-pointer has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring',
            importing && 'pointer-events-none opacity-60',
          )}
        >
          <Upload aria-hidden="true" />
          {previewFile.isPending ? 'Reading the file...' : 'Import from a file'}
          <input
            ref={input}
            id={inputId}
            type="file"
            accept="application/json,application/fhir+json,.json,application/zip,.zip"
            className="sr-only"
            onChange={choose}
            disabled={importing}
          />
        </label>
      </div>
      {pending && (
        <ImportPreviewPanel
          preview={pending.preview}
          forWhom={pending.personId ? `For ${personLabel(pending.personId)}` : null}
          busy={confirmImport.isPending}
          onConfirm={(changed) => confirmImport.mutate({ chosen: pending, changed })}
          onCancel={() => setPending(null)}
        />
      )}

      <h3 className="mt-6 text-sm font-semibold">FHIR (R4)</h3>
      <p className="mb-3 text-sm text-muted-foreground">
        One person’s records in the standard format of patient portals and health apps. A FHIR R4
        Bundle chosen with ‘Import from a file’ is added to the person chosen here; importing the
        same file again adds nothing twice.
      </p>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="sm:w-64 sm:shrink-0">
          <PersonSelect
            value={personId}
            onChange={setChosenPerson}
            disabled={downloadFhir.isPending || importing || pending !== null}
          />
        </div>
        <Button
          type="button"
          variant="outline"
          onClick={() => downloadFhir.mutate()}
          disabled={!personId || downloadFhir.isPending}
        >
          <FileJson aria-hidden="true" />
          Download FHIR (R4)
        </Button>
      </div>
      <p role="status" className="mt-2 min-h-5 text-sm text-muted-foreground">
        {downloaded !== null ? `Preparing the FHIR file… ${megabytes(downloaded)}` : ''}
      </p>
    </Card>
  );
}
