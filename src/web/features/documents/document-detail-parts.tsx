/**
 * What a document's page is made of: the document itself (an image, which a tap zooms, or a
 * PDF in the browser's own viewer) and the card that says what it is and what it is
 * attached to.
 */
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate, LONG_DATE_FORMAT } from '../../../shared/dates';
import { attachmentLabel } from '../../../shared/document-labels';
import type { StoredDocument } from '../../../shared/documents';
import { Card } from '../../components/ui/card';
import { cn } from '../../lib/cn';
import { formatBytes } from './document-list';

/** The document full width: an image that a tap zooms, or a PDF in a frame. */
export function DocumentView({
  document,
  zoomed,
  onZoom,
}: {
  document: StoredDocument;
  zoomed: boolean;
  onZoom: () => void;
}) {
  return document.mime_type.startsWith('image/') ? (
    <div className="-mx-4 overflow-auto bg-surface-muted sm:mx-0 sm:rounded-2xl">
      <img
        src={document.view_url}
        alt={document.title}
        className={cn(
          'block max-w-none',
          // At a desk the whole page fits the screen's height until it is zoomed.
          zoomed ? 'w-[250%]' : 'w-full lg:max-h-[calc(100dvh-14rem)] lg:object-contain',
        )}
        onClick={onZoom}
      />
    </div>
  ) : (
    <iframe
      src={document.view_url}
      title={document.title}
      className="h-[70dvh] w-full rounded-2xl border border-border bg-white lg:h-[calc(100dvh-14rem)]"
    />
  );
}

/** What the document is, whose, its file, and the records it is attached to, as links. */
export function DocumentFacts({
  document,
  person,
}: {
  document: StoredDocument;
  person: string | null;
}) {
  const { t } = useTranslation();
  const rows = [
    { label: t('Document Type'), value: t(document.document_type) },
    {
      label: t('Document Date'),
      value: document.document_date ? formatDate(document.document_date, LONG_DATE_FORMAT) : null,
    },
    { label: t('Family Member'), value: person },
    { label: t('File'), value: `${document.file_name} · ${formatBytes(document.size_bytes)}` },
    {
      label: t('Attached to'),
      value: document.records.length ? (
        <ul className="space-y-1">
          {document.records.map((record) => (
            <li key={`${record.record_type}/${record.record_id}`}>
              <Link
                className="-my-1 inline-flex min-h-9 items-center text-primary underline-offset-4 hover:underline"
                to={`/${record.record_type}/${record.record_id}`}
              >
                {attachmentLabel(record)}
              </Link>
            </li>
          ))}
        </ul>
      ) : null,
    },
  ].filter((row) => row.value);
  return (
    <Card className="mt-4 p-5 lg:mt-0">
      <dl className="divide-y divide-border">
        {rows.map((row) => (
          <div key={row.label} className="grid gap-1 py-3 sm:grid-cols-[10rem_1fr] sm:gap-4">
            <dt className="text-sm font-medium text-muted-foreground">{row.label}</dt>
            <dd className="min-w-0 wrap-anywhere">{row.value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}
