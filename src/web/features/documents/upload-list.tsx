/**
 * The files of an upload, each with how far it has gone ('Uploaded', 'Failed', a percentage)
 * and a progress bar; one that failed says why and can be sent again.
 */
import { RotateCcw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button';
import type { Upload } from './use-document-upload';

function UploadProgress({ upload, onRetry }: { upload: Upload; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <li className="space-y-1">
      <div className="flex items-center justify-between gap-2 text-sm">
        <span className="min-w-0 truncate font-medium">{upload.file.name}</span>
        <span className="shrink-0 text-muted-foreground">
          {upload.state === 'done'
            ? t('Uploaded')
            : upload.state === 'failed'
              ? t('Failed')
              : upload.state === 'sending'
                ? `${Math.round((upload.sent / Math.max(upload.file.size, 1)) * 100)}%`
                : ''}
        </span>
      </div>
      <progress
        className="h-2 w-full accent-primary"
        aria-label={t('{file} upload progress', { file: upload.file.name })}
        max={Math.max(upload.file.size, 1)}
        value={
          upload.state === 'done' ? upload.file.size : upload.state === 'failed' ? 0 : upload.sent
        }
      />
      {upload.state === 'failed' ? (
        <div className="flex items-center justify-between gap-2">
          <p className="text-sm font-medium text-destructive" role="alert">
            {upload.error}
          </p>
          <Button
            type="button"
            variant="outline"
            onClick={onRetry}
            aria-label={t('Retry {file}', { file: upload.file.name })}
          >
            <RotateCcw aria-hidden="true" />
            {t('Retry')}
          </Button>
        </div>
      ) : null}
    </li>
  );
}

export function UploadList({
  uploads,
  onRetry,
}: {
  uploads: readonly Upload[];
  onRetry: (upload: Upload) => void;
}) {
  const { t } = useTranslation();
  return (
    <ul className="space-y-3" aria-label={t('Files')}>
      {uploads.map((upload) => (
        <UploadProgress
          key={`${upload.file.name}-${upload.file.lastModified}`}
          upload={upload}
          onRetry={() => onRetry(upload)}
        />
      ))}
    </ul>
  );
}
