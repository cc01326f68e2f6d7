/** Profile Settings: how much of the account's storage for documents is used (DOCUMENT_QUOTA_MB). */
import { useTranslation } from 'react-i18next';
import { Card } from '../../components/ui/card';
import { formatBytes } from '../documents/document-list';
import { useDocumentUsage } from '../documents/document-queries';

export function DocumentStorageSection() {
  const { t } = useTranslation();
  const usage = useDocumentUsage();
  const used = usage.data?.usedBytes ?? 0;
  const limit = usage.data?.limitBytes ?? 1;
  return (
    <Card className="space-y-3 p-4">
      <h2 className="font-semibold">{t('Document Storage')}</h2>
      {usage.data ? (
        <>
          <p className="text-sm">
            {t('{used} of {limit} used', { used: formatBytes(used), limit: formatBytes(limit) })}
          </p>
          <progress
            className="h-2 w-full accent-primary"
            aria-label={t('Document storage used')}
            max={limit}
            value={Math.min(used, limit)}
          />
        </>
      ) : (
        <p className="text-sm text-muted-foreground">{t('Loading...')}</p>
      )}
    </Card>
  );
}
