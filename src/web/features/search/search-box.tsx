/**
 * The header's search field (CONTRACT.md §5 'Search'): a `searchbox` named 'Search' on every
 * screen. As one types, the first results show in a list under it (after a pause in the
 * typing); the arrow keys move through them and Enter opens the one chosen, or the whole
 * /search page. '/' puts the cursor in it, unless one is typing in another field.
 */
import { useQuery } from '@tanstack/react-query';
import { Search } from 'lucide-react';
import { Suspense, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { lazyPart } from '../../lib/when-reachable';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { key } from '../../../shared/i18n/translate';
import { SEARCH_PREVIEW_LIMIT, searchTerms, type SearchResult } from '../../../shared/search';
import { searchApi } from '../../lib/api';
import { queryKeys } from '../../lib/query-client';
import { typingInField } from '../../lib/typing-in-field';

const DEBOUNCE_MS = 200;

/** The search field's name, a key of the catalogue. */
export const SEARCH_LABEL = key('Search');

function useDebounced(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export const searchPath = (q: string) => `/search?q=${encodeURIComponent(q.trim())}`;

/** The list of first results: loaded when the field is first focused, so the header carries none of it. */
const loadPreviewList = () => import('./search-preview-list');
const SearchPreviewList = lazyPart(loadPreviewList);

export function SearchBox() {
  const { t } = useTranslation();
  const location = useLocation();
  const [params] = useSearchParams();
  const onSearchPage = location.pathname === '/search';
  const [value, setValue] = useState(onSearchPage ? (params.get('q') ?? '') : '');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const input = useRef<HTMLInputElement>(null);
  const navigate = useNavigate();
  const listId = useId();
  const settled = useDebounced(value.trim(), DEBOUNCE_MS);
  const hasWords = searchTerms(settled).length > 0;

  const preview = useQuery({
    queryKey: queryKeys.search(settled, undefined, SEARCH_PREVIEW_LIMIT),
    queryFn: () => searchApi.search({ q: settled, limit: SEARCH_PREVIEW_LIMIT }),
    enabled: open && hasWords,
    staleTime: 5_000,
  });
  const answer = preview.data;
  const results: SearchResult[] = answer?.groups.flatMap((group) => group.results) ?? [];
  const terms = answer?.terms ?? [];

  useEffect(() => {
    function onKey(event: globalThis.KeyboardEvent) {
      if (event.key !== '/' || event.metaKey || event.ctrlKey || event.altKey) return;
      if (typingInField(event.target)) return;
      event.preventDefault();
      input.current?.focus();
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  useEffect(() => setActive(-1), [settled]);

  function go(path: string) {
    setOpen(false);
    input.current?.blur();
    void navigate(path);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' && results.length) {
      event.preventDefault();
      setOpen(true);
      setActive((index) => (index + 1) % results.length);
    } else if (event.key === 'ArrowUp' && results.length) {
      event.preventDefault();
      setActive((index) => (index <= 0 ? results.length - 1 : index - 1));
    } else if (event.key === 'Escape') {
      if (open) event.preventDefault();
      setOpen(false);
      setActive(-1);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const chosen = open && active >= 0 ? results[active] : undefined;
      if (chosen) go(chosen.path);
      else if (value.trim()) go(searchPath(value));
    }
  }

  const showList = open && hasWords && value.trim() !== '' && answer !== undefined;
  const optionId = (index: number) => `${listId}-option-${index}`;

  return (
    <div className="relative mt-2">
      <Search
        className="pointer-events-none absolute top-1/2 start-3 size-4 -translate-y-1/2 text-muted-foreground"
        aria-hidden="true"
      />
      <input
        ref={input}
        type="search"
        aria-label={t(SEARCH_LABEL)}
        placeholder={t('Search records and documents')}
        autoComplete="off"
        enterKeyHint="search"
        aria-controls={showList ? listId : undefined}
        aria-autocomplete="list"
        aria-activedescendant={showList && active >= 0 ? optionId(active) : undefined}
        value={value}
        onChange={(event) => {
          setValue(event.target.value);
          setOpen(true);
        }}
        onFocus={() => {
          setOpen(true);
          void loadPreviewList().catch(() => undefined);
        }}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
        className="h-10 w-full rounded-full border border-border bg-surface pe-4 ps-9 text-base placeholder:text-muted-foreground focus-visible:border-primary focus-visible:ring-2 focus-visible:ring-primary/30 focus-visible:outline-none sm:text-sm"
      />
      {showList ? (
        <Suspense fallback={null}>
          <SearchPreviewList
            id={listId}
            results={results}
            terms={terms}
            active={active}
            optionId={optionId}
            query={value.trim()}
            onChoose={go}
            onSeeAll={() => go(searchPath(value))}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
