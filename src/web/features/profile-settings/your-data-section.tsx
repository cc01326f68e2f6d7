/**
 * 'Your data' in profile settings: download everything as one file, and bring such a file
 * into an empty account; download one person's records as FHIR R4, and bring a FHIR R4
 * Bundle into a person (CONTRACT.md §4). The one Person select says whose records both
 * FHIR actions are about.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Download, FileJson, Upload } from 'lucide-react';
import { useId, useRef, useState, type ChangeEvent } from 'react';
import {
  IMPORT_TOO_LARGE,
  MAX_IMPORT_BYTES,
  type ImportSummary,
} from '../../../shared/data-export';
import { isFhirResource, type FhirImportSummary } from '../../../shared/fhir';
import { toasts } from '../../../shared/messages';
import { Button, buttonVariants } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { dataApi } from '../../lib/api';
import { cn } from '../../lib/cn';
import { saveBlob } from '../../lib/save-file';
import { showError, showSuccess } from '../../lib/toast';
import { PersonSelect, usePersons } from '../family-members/person-select';

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

const NOT_JSON = 'The file is not a Kin Health export or a FHIR R4 Bundle (it is not JSON)';

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

type ImportAnswer = ImportSummary | FhirImportSummary;

export function YourDataSection() {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const queryClient = useQueryClient();
  const persons = usePersons();
  const [chosenPerson, setChosenPerson] = useState('');
  const personId = chosenPerson || persons[0]?.id || '';
  const [downloaded, setDownloaded] = useState<number | null>(null);

  const importFile = useMutation({
    mutationFn: async (file: File): Promise<ImportAnswer> => {
      // Said at once, before a file of hundreds of MB is read into the page.
      if (file.size > MAX_IMPORT_BYTES) throw new Error(IMPORT_TOO_LARGE);
      const text = await file.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new Error(NOT_JSON);
      }
      return isFhirResource(json) ? dataApi.importFhir(text, personId) : dataApi.import(json);
    },
    onSuccess: (answer) => {
      showSuccess(
        'format' in answer
          ? {
              title: 'Import complete',
              // Whose records they went into, said each time: the select sits further down.
              description: `For ${persons.find((p) => p.id === personId)?.label ?? 'the chosen person'}: ${answer.summary}`,
            }
          : {
              title: 'Import complete',
              description: `${count(answer.family_members, 'family member')} and ${count(answer.records, 'record')} were added.`,
            },
      );
      void queryClient.invalidateQueries();
    },
    onError: (error) => showError(toasts.error, error),
    onSettled: () => {
      if (input.current) input.current.value = '';
    },
  });

  const downloadExport = useMutation({
    mutationFn: () => dataApi.downloadExport(() => undefined),
    onSuccess: ({ blob, fileName }) => saveBlob(blob, fileName ?? 'kin-health-export.json'),
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
    if (file) importFile.mutate(file);
  };

  return (
    <Card className="p-5">
      <h2 className="font-semibold">Your data</h2>
      <p className="mb-4 text-sm text-muted-foreground">
        Download your family members and every record as one file, to keep or to move to another Kin
        Health. A file downloaded here can be imported into an empty account.
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
            importFile.isPending && 'pointer-events-none opacity-60',
          )}
        >
          <Upload aria-hidden="true" />
          {importFile.isPending ? 'Importing...' : 'Import from a file'}
          <input
            ref={input}
            id={inputId}
            type="file"
            accept="application/json,application/fhir+json,.json"
            className="sr-only"
            onChange={choose}
            disabled={importFile.isPending}
          />
        </label>
      </div>

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
            disabled={downloadFhir.isPending || importFile.isPending}
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
