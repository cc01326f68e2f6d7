/**
 * Documents as a list: each with its thumbnail ('{title} thumbnail'), type, date and person;
 * stacked (in a narrow column beside a record, from 1024 px), the thumbnail large above them.
 */
import { ChevronRight, FileText } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDate, formatNumber, LONG_DATE_FORMAT } from '../../../shared/dates';
import type { StoredDocument } from '../../../shared/documents';
import { tr } from '../../../shared/i18n/translate';
import { MemberBadge } from '../../components/member-badge';
import { cn } from '../../lib/cn';

/** A size's number with `digits` decimals, written as the language writes decimals ('1.5', '1,5'). */
const decimal = (value: number, digits: number) =>
  formatNumber(value, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
    useGrouping: false,
  });

/** A document's size as people read it. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return tr('{size} B', { size: bytes });
  if (bytes < 1024 * 1024) return tr('{size} kB', { size: Math.round(bytes / 1024) });
  if (bytes < 1024 * 1024 * 1024) return tr('{size} MB', { size: decimal(bytes / 1024 / 1024, 1) });
  return tr('{size} GB', { size: decimal(bytes / 1024 / 1024 / 1024, 2) });
}

export function DocumentThumbnail({
  document,
  className,
}: {
  document: StoredDocument;
  className?: string;
}) {
  const { t } = useTranslation();
  return document.thumbnail_url ? (
    <img
      src={document.thumbnail_url}
      alt={t('{title} thumbnail', { title: document.title })}
      loading="lazy"
      decoding="async"
      className={cn(
        'size-16 shrink-0 rounded-lg border border-border bg-white object-cover',
        className,
      )}
    />
  ) : (
    <span
      role="img"
      aria-label={t('{title} thumbnail', { title: document.title })}
      className={cn(
        'flex size-16 shrink-0 items-center justify-center rounded-lg border border-border bg-surface-muted text-muted-foreground',
        className,
      )}
    >
      <FileText className="size-7" aria-hidden="true" />
    </span>
  );
}

export function DocumentList({
  documents,
  showPerson = true,
  stacked = false,
}: {
  documents: readonly StoredDocument[];
  showPerson?: boolean;
  /** From 1024 px, each document's thumbnail large above its title (a narrow column's list). */
  stacked?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <ul className="space-y-3">
      {documents.map((document) => (
        <li key={document.id}>
          <Link
            to={`/documents/${document.id}`}
            className={cn(
              'flex items-center gap-3 rounded-2xl border border-border bg-surface p-3 shadow-[0_1px_2px_rgb(15_31_36/0.05)] transition-colors hover:border-primary',
              stacked && 'lg:flex-col lg:items-stretch',
            )}
          >
            <DocumentThumbnail
              document={document}
              className={stacked ? 'lg:h-36 lg:w-full' : undefined}
            />
            <span className="min-w-0 flex-1 space-y-0.5">
              <span className="block truncate font-semibold">{document.title}</span>
              <span className="block text-sm text-muted-foreground">
                {t(document.document_type)}
                {document.document_date
                  ? ` · ${formatDate(document.document_date, LONG_DATE_FORMAT)}`
                  : ''}
              </span>
              {showPerson && document.person_name ? (
                <MemberBadge name={document.person_name} color={null} />
              ) : null}
            </span>
            <ChevronRight
              className={cn('size-5 shrink-0 text-muted-foreground', stacked && 'lg:hidden')}
              aria-hidden="true"
            />
          </Link>
        </li>
      ))}
    </ul>
  );
}
