/** Profile Settings: how much of the account's storage for documents is used (DOCUMENT_QUOTA_MB). */
import { Card } from '../../components/ui/card';
import { formatBytes } from '../documents/document-list';
import { useDocumentUsage } from '../documents/document-queries';

export function DocumentStorageSection() {
  const usage = useDocumentUsage();
  const used = usage.data?.usedBytes ?? 0;
  const limit = usage.data?.limitBytes ?? 1;
  return (
    <Card className="space-y-3 p-4">
      <h2 className="font-semibold">Document Storage</h2>
      {usage.data ? (
        <>
          <p className="text-sm">
            {formatBytes(used)} of {formatBytes(limit)} used
          </p>
          <progress
            className="h-2 w-full accent-primary"
            aria-label="Document storage used"
            max={limit}
            value={Math.min(used, limit)}
          />
        </>
      ) : (
        <p className="text-sm text-muted-foreground">Loading...</p>
      )}
    </Card>
  );
}
