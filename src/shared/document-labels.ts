/**
 * How documents and the records they are attached to are named in choices (CONTRACT §6
 * 'Documents after upload'): a record as '{Record type}: {title} ({date})', e.g. 'Visit:
 * Check-up (Mar 3, 2026)', a document as '{Document type}: {title} ({date})'. The date is
 * written as the timeline's days and the lists' dates are ('MMM d, yyyy'), a visit's on the
 * reader's own day; and the day a document attached from a record is dated by default.
 */
import { tr } from './i18n/translate';
import { CARD_TIME_FORMAT, DAY_GROUP_FORMAT, formatDate, localDayOf } from './dates';
import type { DocumentAttachment, StoredDocument } from './documents';
import { recordIdentities } from './records/catalogue';

/** The dates of the choices: the timeline's day headings' and the lists'. */
export const CHOICE_DATE_FORMAT = DAY_GROUP_FORMAT;

const named = (kind: string, title: string, date: string | null | undefined) => {
  const day = formatDate(date, CHOICE_DATE_FORMAT);
  const name = title ? tr('{kind}: {title}', { kind: tr(kind), title }) : tr(kind);
  return day ? tr('{name} ({date})', { name, date: day }) : name;
};

/** A record's name in 'Attached To' and on a document's page. */
export function attachmentLabel(record: DocumentAttachment): string {
  const noun =
    recordIdentities.find((identity) => identity.path === record.record_type)?.noun ??
    record.record_type;
  // A vitals entry is named by its moment: its time, the day beside it.
  const title =
    record.title_kind === 'datetime' ? formatDate(record.title, CARD_TIME_FORMAT) : record.title;
  return named(noun, title, record.date);
}

/** A document's name in the choice of documents already uploaded. */
export const documentChoiceLabel = (
  document: Pick<StoredDocument, 'title' | 'document_type' | 'document_date'>,
) => named(document.document_type, document.title, document.document_date);

/**
 * The Document Date a document attached from a record takes: the record's day (a visit's
 * timestamp on the reader's day), or undefined when the record has no date.
 */
export function dayOfRecord(date: string | null | undefined): string | undefined {
  if (!date) return undefined;
  return date.length > 10 ? localDayOf(date) : date;
}
