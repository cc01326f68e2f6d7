/** Where a record or document came from when an import brought it: 'Imported from {file} on {date}'. */
import { FileInput } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { formatDate, LONG_DATE_FORMAT } from '../../../shared/dates';
import type { ImportedFrom } from '../../../shared/imports';

export function ImportedFromLine({ from }: { from: ImportedFrom | null | undefined }) {
  const { t } = useTranslation();
  if (!from) return null;
  return (
    <p className="mt-3 flex items-center gap-2 text-sm text-muted-foreground">
      <FileInput className="size-4 shrink-0" aria-hidden="true" />
      <span className="min-w-0 break-all">
        {t('Imported from {file} on {date}', {
          file: from.file_name,
          date: formatDate(from.imported_at, LONG_DATE_FORMAT),
        })}
      </span>
    </p>
  );
}
