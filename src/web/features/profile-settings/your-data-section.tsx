/**
 * 'Your data' in profile settings: download everything as one file (to keep, or to bring
 * into another Kin Health), and one person's records as FHIR R4 (CONTRACT.md §4). 'Import
 * from a file' leads to /import (CONTRACT §6) with the files chosen here, where each is
 * read, previewed and written.
 */
import { useMutation } from '@tanstack/react-query';
import { Download, FileJson, Upload } from 'lucide-react';
import { useId, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { formatNumber } from '../../../shared/dates';
import { toasts } from '../../../shared/messages';
import { Button, buttonVariants } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { dataApi } from '../share/data-api';
import { cn } from '../../lib/cn';
import { saveBlob } from '../../lib/save-file';
import { showError } from '../../lib/toast';
import { PersonSelect, useChosenPerson } from '../family-members/person-select';
import { handOverFiles } from '../imports/files-handed-over';

/** The standard's name, written the same in every language. */
const FHIR_R4 = 'FHIR (R4)';

/** Megabytes with one decimal, in the language's way of writing numbers. */
function megabytes(bytes: number): string {
  return formatNumber(bytes / 1024 / 1024, {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
    useGrouping: false,
  });
}

export function YourDataSection() {
  const { t } = useTranslation();
  const inputId = useId();
  const navigate = useNavigate();
  const { personId, choose: setChosenPerson } = useChosenPerson();
  const [downloaded, setDownloaded] = useState<number | null>(null);

  const downloadExport = useMutation({
    mutationFn: () => dataApi.downloadExport(() => undefined),
    // A zip archive when the account has documents (their files beside the JSON).
    onSuccess: ({ blob, fileName }) =>
      saveBlob(
        blob,
        fileName ??
          (blob.type === 'application/zip' ? 'kin-health-export.zip' : 'kin-health-export.json'),
      ),
    onError: (error) => showError(t(toasts.error), error),
  });

  const downloadFhir = useMutation({
    mutationFn: () => {
      setDownloaded(0);
      return dataApi.downloadFhir(personId, setDownloaded);
    },
    onSuccess: ({ blob, fileName }) => saveBlob(blob, fileName ?? 'kin-health-fhir.json'),
    onError: (error) => showError(t(toasts.error), error),
    onSettled: () => setDownloaded(null),
  });

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])];
    if (files.length === 0) return;
    handOverFiles(files);
    void navigate('/import');
  };

  return (
    <Card className="p-5">
      <h2 className="font-semibold">{t('Your data')}</h2>
      <p className="mb-4 text-sm text-muted-foreground">
        {t(
          'Download your family members, every record and your documents as one file (a .zip archive when you have documents), to keep or to move to another Kin Health. ‘Import from a file’ brings in that file, a patient portal’s, an Apple Health export or a CSV.',
        )}
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
          {t('Download my data')}
        </a>
        <label
          htmlFor={inputId}
          className={cn(
            buttonVariants({ variant: 'outline' }),
            'cursor-pointer has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring',
          )}
        >
          <Upload aria-hidden="true" />
          {t('Import from a file')}
          <input id={inputId} type="file" multiple className="sr-only" onChange={choose} />
        </label>
      </div>

      <h3 className="mt-6 text-sm font-semibold">{FHIR_R4}</h3>
      <p className="mb-3 text-sm text-muted-foreground">
        {t(
          'One person’s records in the standard format of patient portals and health apps, to give to a doctor or another app.',
        )}
      </p>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="sm:w-64 sm:shrink-0">
          <PersonSelect
            value={personId}
            onChange={setChosenPerson}
            disabled={downloadFhir.isPending}
          />
        </div>
        <Button
          type="button"
          variant="outline"
          onClick={() => downloadFhir.mutate()}
          disabled={!personId || downloadFhir.isPending}
        >
          <FileJson aria-hidden="true" />
          {t('Download FHIR (R4)')}
        </Button>
      </div>
      <p role="status" className="mt-2 min-h-5 text-sm text-muted-foreground">
        {downloaded !== null
          ? t('Preparing the FHIR file… {size} MB', { size: megabytes(downloaded) })
          : ''}
      </p>
    </Card>
  );
}
