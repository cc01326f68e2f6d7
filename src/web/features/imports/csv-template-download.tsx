/**
 * 'Download a CSV template': the columns the CSV import reads, with an example row, for
 * measurements or lab results (chosen beside it). Made in the browser from the product's
 * own labels (shared/imports-csv-template.ts): nothing to ask the server.
 */
import { FileSpreadsheet } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CSV_TEMPLATE_FILE_NAMES,
  csvTemplate,
  type CsvTemplateKind,
} from '../../../shared/imports-csv-template';
import { key } from '../../../shared/i18n/translate';
import { Button } from '../../components/ui/button';
import { Label, Select } from '../../components/ui/input';
import { saveBlob } from '../../lib/save-file';

const KINDS: { value: CsvTemplateKind; label: string }[] = [
  { value: 'vitals', label: key('Measurements (vitals)') },
  { value: 'lab-results', label: key('Lab results') },
];

export function CsvTemplateDownload() {
  const { t } = useTranslation();
  const id = useId();
  const [kind, setKind] = useState<CsvTemplateKind>('vitals');
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
      <div className="grid gap-1.5 sm:w-60">
        <Label htmlFor={id}>{t('Template')}</Label>
        <Select
          id={id}
          value={kind}
          onChange={(event) => setKind(event.target.value as CsvTemplateKind)}
        >
          {KINDS.map((option) => (
            <option key={option.value} value={option.value}>
              {t(option.label)}
            </option>
          ))}
        </Select>
      </div>
      <Button
        type="button"
        variant="outline"
        onClick={() =>
          saveBlob(
            new Blob([csvTemplate(kind)], { type: 'text/csv;charset=utf-8' }),
            CSV_TEMPLATE_FILE_NAMES[kind],
          )
        }
      >
        <FileSpreadsheet aria-hidden="true" />
        {t('Download a CSV template')}
      </Button>
    </div>
  );
}
