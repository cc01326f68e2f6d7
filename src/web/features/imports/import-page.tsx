/**
 * /import, 'Import Records' (CONTRACT §6 'Bring records in'): one place to bring a family's
 * history in from the files they already have — a patient portal's C-CDA, an iPhone's Apple
 * Health export, FHIR, a spreadsheet's or a glucose meter's CSV, or this product's own
 * export. Several files at once, each read and previewed on its own card and written only
 * on its 'Import'; below, Import History, from where an import can be undone.
 */
import { Upload } from 'lucide-react';
import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { buttonVariants } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { cn } from '../../lib/cn';
import { PageHeader } from '../shell/page-header';
import { CsvTemplateDownload } from './csv-template-download';
import { FileImportCard } from './file-import-card';
import type { ChosenFile } from './use-file-import';
import { takeHandedOverFiles } from './files-handed-over';
import { ImportHistory } from './import-history';

let chosenCount = 0;
const keyed = (files: readonly File[]): ChosenFile[] =>
  files.map((file) => ({ key: `${(chosenCount += 1)}`, file }));

export default function ImportPage() {
  const { t } = useTranslation();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [files, setFiles] = useState<ChosenFile[]>([]);
  // Files chosen on Profile Settings arrive with the screen (taken once, whatever re-runs).
  useEffect(() => {
    const handed = takeHandedOverFiles();
    if (handed.length > 0) setFiles((waiting) => [...waiting, ...keyed(handed)]);
  }, []);

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = keyed([...(event.target.files ?? [])]);
    setFiles((waiting) => [...waiting, ...chosen]);
    // The same file may be chosen again (after a Cancel, or to import it once more).
    if (input.current) input.current.value = '';
  };
  const remove = (key: string) => setFiles((waiting) => waiting.filter((f) => f.key !== key));

  return (
    <>
      <PageHeader title={t('Import Records')} />
      <Card className="grid gap-3 p-5">
        <p className="text-sm text-muted-foreground">
          {t(
            'Bring in records you already have: the file a patient portal gives for ‘Download my record’ (C-CDA), an iPhone’s Health export (the .zip from ‘Export All Health Data’), FHIR, a CSV of measurements or lab results, a Dexcom Clarity export, or a Kin Health export. Each file shows what it holds and whose it is before anything is added, and importing a file again adds nothing twice.',
          )}
        </p>
        <div>
          <label
            htmlFor={inputId}
            className={cn(
              buttonVariants(),
              'cursor-pointer has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring',
            )}
          >
            <Upload aria-hidden="true" />
            {t('Import from a file')}
            <input
              ref={input}
              id={inputId}
              type="file"
              multiple
              className="sr-only"
              onChange={choose}
            />
          </label>
        </div>
        <CsvTemplateDownload />
      </Card>
      {files.length > 0 ? (
        <div className="mt-4 grid gap-4">
          {files.map((chosen) => (
            <FileImportCard key={chosen.key} chosen={chosen} onCancel={() => remove(chosen.key)} />
          ))}
        </div>
      ) : null}
      <ImportHistory />
    </>
  );
}
