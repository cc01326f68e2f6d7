/**
 * The first results under the header's search field (search-box.tsx), as a listbox the arrow
 * keys move through; its last option opens the whole /search page.
 */
import { useTranslation } from 'react-i18next';
import { noResultsMessage, type SearchResult } from '../../../shared/search';
import { cn } from '../../lib/cn';
import { Highlighted } from './highlighted';
import { personLabel, ResultIcon, resultDate } from './search-result-link';

export default function SearchPreviewList({
  id: listId,
  results,
  terms,
  active,
  optionId,
  query,
  onChoose: go,
  onSeeAll,
}: {
  id: string;
  results: SearchResult[];
  terms: string[];
  /** The option the arrow keys are on, or -1. */
  active: number;
  /** Each option's id, which the field names as its active descendant. */
  optionId: (index: number) => string;
  query: string;
  onChoose: (path: string) => void;
  onSeeAll: () => void;
}) {
  const { t } = useTranslation();
  return (
    <ul
      id={listId}
      role="listbox"
      aria-label={t('First results')}
      className="absolute inset-x-0 top-full z-40 mt-1 max-h-[60vh] overflow-y-auto rounded-2xl border border-border bg-surface p-1 shadow-lg"
    >
      {results.length === 0 ? (
        <li role="option" aria-selected={false} aria-disabled="true" className="p-3 text-sm">
          {noResultsMessage(query)}
        </li>
      ) : (
        results.map((result, index) => {
          const date = resultDate(result.date);
          return (
            <li
              key={`${result.type}-${result.id}`}
              id={optionId(index)}
              role="option"
              aria-selected={index === active}
              // Keeps the field's focus, so the click is not lost to its blur.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => go(result.path)}
              className={cn(
                'flex cursor-pointer items-start gap-3 rounded-xl p-2',
                index === active ? 'bg-surface-muted' : 'hover:bg-surface-muted',
              )}
            >
              <ResultIcon type={result.type} />
              <span className="min-w-0 flex-1 text-sm">
                <span className="block truncate font-semibold">
                  <Highlighted text={result.title} terms={terms} />
                </span>
                <span className="block truncate text-xs text-muted-foreground">
                  {[personLabel(result.person), date].filter(Boolean).join(' · ')}
                </span>
              </span>
            </li>
          );
        })
      )}
      <li
        role="option"
        aria-selected={false}
        onMouseDown={(event) => event.preventDefault()}
        onClick={onSeeAll}
        className="cursor-pointer rounded-xl p-2 text-sm font-medium text-primary hover:bg-surface-muted"
      >
        {t('See all results')}
      </li>
    </ul>
  );
}
