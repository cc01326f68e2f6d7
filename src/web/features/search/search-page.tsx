/**
 * /search?q=…: every result the user may read, grouped under their record type's heading
 * ('Visits', …, 'Documents'), best matches first, the family-member strip filtering them
 * (CONTRACT.md §5 'Search').
 */
import { useQuery } from '@tanstack/react-query';
import { SearchX } from 'lucide-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { tr } from '../../../shared/i18n/translate';
import { toasts } from '../../../shared/messages';
import { noResultsMessage, SEARCH_PAGE_LIMIT, searchTerms } from '../../../shared/search';
import { EmptyState, Loading } from '../../components/ui/feedback';
import { searchApi } from '../../lib/api';
import { queryKeys } from '../../lib/query-client';
import { showError } from '../../lib/toast';
import { FamilyFilter } from '../family-members/member-filter';
import { usePersonInView } from '../family-members/person-in-view';
import { PageHeader } from '../shell/page-header';
import { SearchResultLink } from './search-result-link';

export default function SearchPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const q = (params.get('q') ?? '').trim();
  const [member] = usePersonInView();
  const hasWords = searchTerms(q).length > 0;
  const search = useQuery({
    queryKey: queryKeys.search(q, member, SEARCH_PAGE_LIMIT),
    queryFn: () => searchApi.search({ q, member }),
    enabled: hasWords,
  });

  useEffect(() => {
    if (search.error) showError(tr(toasts.loadDataError), search.error);
  }, [search.error]);

  const groups = search.data?.groups ?? [];
  return (
    <>
      <PageHeader
        title={t('Search')}
        subtitle={q ? t('Results for "{query}"', { query: q }) : undefined}
      />
      <FamilyFilter />
      {!hasWords ? (
        <EmptyState icon={SearchX} title={t('Type a word to search your records and documents.')} />
      ) : search.isPending ? (
        <Loading />
      ) : groups.length === 0 ? (
        search.isError ? null : (
          <EmptyState icon={SearchX} title={noResultsMessage(q)} />
        )
      ) : (
        <div className="space-y-6">
          {groups.map((group) => (
            <section key={group.type} aria-labelledby={`search-${group.type}`}>
              <h2
                id={`search-${group.type}`}
                className="mb-2 text-sm font-semibold text-muted-foreground"
              >
                {t(group.heading)}
              </h2>
              <ul className="space-y-2">
                {group.results.map((result) => (
                  <li key={result.id}>
                    <SearchResultLink result={result} terms={search.data?.terms ?? []} />
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
    </>
  );
}
