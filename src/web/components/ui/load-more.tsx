/**
 * The end of a paged list: the next page loads as this scrolls into view, and a button
 * loads it for keyboard users and browsers without IntersectionObserver. While the page
 * loads the button reads 'Loading...' and keeps its focus (aria-disabled rather than
 * disabled, which would drop the focus to the top of the page).
 */
import { useTranslation } from 'react-i18next';
import { useLoadMoreOnScroll } from '../../lib/use-load-more';
import { cn } from '../../lib/cn';
import { Button } from './button';

/** What a paged query (TanStack's useInfiniteQuery) says about its next page. */
interface NextPage {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

export function LoadMore({
  query: { hasNextPage, isFetchingNextPage, fetchNextPage },
  label,
  className,
}: {
  query: NextPage;
  label?: string;
  className?: string;
}) {
  const { t } = useTranslation();
  const loadMore = () => {
    if (!isFetchingNextPage) void fetchNextPage();
  };
  const sentinel = useLoadMoreOnScroll(hasNextPage && !isFetchingNextPage, loadMore);
  if (!hasNextPage) return null;
  return (
    <div ref={sentinel} className={cn('flex justify-center', className)}>
      <Button
        variant="outline"
        onClick={loadMore}
        aria-disabled={isFetchingNextPage || undefined}
        className="aria-disabled:cursor-default aria-disabled:opacity-60"
      >
        {isFetchingNextPage ? t('Loading...') : (label ?? t('Show more'))}
      </Button>
    </div>
  );
}
