/** Documents as a list: each with its thumbnail ('{title} thumbnail'), type, date and person. */
import { ChevronRight, FileText } from 'lucide-react';
import { Link } from 'react-router';
import { formatDate, LONG_DATE_FORMAT } from '../../../shared/dates';
import type { StoredDocument } from '../../../shared/documents';
import { MemberBadge } from '../../components/member-badge';

/** A document's size as people read it. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} kB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 / 1024 / 1024).toFixed(2)} GB`;
}

export function DocumentThumbnail({ document }: { document: StoredDocument }) {
  return document.thumbnail_url ? (
    <img
      src={document.thumbnail_url}
      alt={`${document.title} thumbnail`}
      loading="lazy"
      decoding="async"
      className="size-16 shrink-0 rounded-lg border border-border bg-white object-cover"
    />
  ) : (
    <span
      role="img"
      aria-label={`${document.title} thumbnail`}
      className="flex size-16 shrink-0 items-center justify-center rounded-lg border border-border bg-surface-muted text-muted-foreground"
    >
      <FileText className="size-7" aria-hidden="true" />
    </span>
  );
}

export function DocumentList({
  documents,
  showPerson = true,
}: {
  documents: readonly StoredDocument[];
  showPerson?: boolean;
}) {
  return (
    <ul className="space-y-3">
      {documents.map((document) => (
        <li key={document.id}>
          <Link
            to={`/documents/${document.id}`}
            className="flex items-center gap-3 rounded-2xl border border-border bg-surface p-3 shadow-[0_1px_2px_rgb(15_31_36/0.05)] transition-colors hover:border-primary"
          >
            <DocumentThumbnail document={document} />
            <span className="min-w-0 flex-1 space-y-0.5">
              <span className="block truncate font-semibold">{document.title}</span>
              <span className="block text-sm text-muted-foreground">
                {document.document_type}
                {document.document_date
                  ? ` · ${formatDate(document.document_date, LONG_DATE_FORMAT)}`
                  : ''}
              </span>
              {showPerson && document.person_name ? (
                <MemberBadge name={document.person_name} color={null} />
              ) : null}
            </span>
            <ChevronRight className="size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
          </Link>
        </li>
      ))}
    </ul>
  );
}
