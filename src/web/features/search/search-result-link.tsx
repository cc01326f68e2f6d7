/** One search result: the record's type, title and text with its matches marked, person, date. */
import { FileText } from 'lucide-react';
import { Link } from 'react-router';
import { CARD_TIME_FORMAT, DAY_GROUP_FORMAT, formatDate } from '../../../shared/dates';
import { tr } from '../../../shared/i18n/translate';
import { recordCatalogue, type RecordType } from '../../../shared/records/catalogue';
import type { SearchResult } from '../../../shared/search';
import { MemberBadge } from '../../components/member-badge';
import { RecordTypeIcon } from '../../components/record-type-icon';
import { Highlighted } from './highlighted';

const isRecordType = (type: string): type is RecordType => type in recordCatalogue;

export function ResultIcon({ type }: { type: string }) {
  if (isRecordType(type)) return <RecordTypeIcon type={type} size="sm" />;
  return (
    <span className="flex size-9 shrink-0 items-center justify-center rounded-xl bg-surface-muted text-foreground">
      <FileText className="size-5" aria-hidden="true" />
    </span>
  );
}

export function resultDate(date: string | null): string | null {
  if (!date) return null;
  const day = formatDate(date, DAY_GROUP_FORMAT);
  return date.length > 10 ? `${day}, ${formatDate(date, CARD_TIME_FORMAT)}` : day;
}

/** A result's person as the member strip names them: 'Maria Garcia (you)', 'Mia'. */
export function personLabel(person: SearchResult['person']): string | null {
  if (!person) return null;
  return person.you ? tr('{name} (you)', { name: person.name }) : person.name;
}

export function SearchResultLink({
  result,
  terms,
}: {
  result: SearchResult;
  terms: readonly string[];
}) {
  const date = resultDate(result.date);
  return (
    <Link
      to={result.path}
      className="flex items-start gap-3 rounded-2xl border border-border bg-surface p-3.5 transition-colors hover:border-primary"
    >
      <ResultIcon type={result.type} />
      <span className="min-w-0 flex-1">
        <span className="block font-semibold break-words">
          <Highlighted text={result.title} terms={terms} />
        </span>
        {result.snippet ? (
          <span className="mt-0.5 line-clamp-2 block text-sm break-words text-muted-foreground">
            <Highlighted text={result.snippet} terms={terms} />
          </span>
        ) : null}
        <span className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-0.5 text-xs text-muted-foreground">
          {date ? <span>{date}</span> : null}
          {result.person ? (
            <MemberBadge name={personLabel(result.person)} color={result.person.color} />
          ) : null}
        </span>
      </span>
    </Link>
  );
}
