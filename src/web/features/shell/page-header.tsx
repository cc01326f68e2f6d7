/** The top of a screen: a back link or the account avatar, the title, and actions. */
import { ArrowLeft, type LucideIcon } from 'lucide-react';
import { useEffect, useLayoutEffect, useRef, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { APP_NAME } from '../../../shared/constants';
import { Button } from '../../components/ui/button';
import { SearchBox } from '../search/search-box';
import { AccountButton } from './account-button';

/**
 * The header's height, published as --page-header-height while it is on screen: whatever the
 * browser scrolls into view (a field it focuses, an invalid one the form moves to) stops
 * below the header rather than under it (styles.css, scroll-padding-top). A phone's header
 * holds the title and the search field, taller than a fixed allowance would guess.
 */
function usePublishedHeight(header: RefObject<HTMLElement | null>) {
  useLayoutEffect(() => {
    const element = header.current;
    if (!element) return;
    const root = document.documentElement.style;
    const observer = new ResizeObserver(() =>
      root.setProperty('--page-header-height', `${element.offsetHeight}px`),
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.removeProperty('--page-header-height');
    };
  }, [header]);
}

/** The first screen keeps the browser's own focus; later screens move it to their title. */
let firstScreen = true;

export function PageHeader({
  title,
  backTo,
  actions,
  subtitle,
}: {
  title: ReactNode;
  /** Where the back arrow goes; without one the account avatar shows instead. */
  backTo?: string;
  actions?: ReactNode;
  subtitle?: ReactNode;
}) {
  const { t } = useTranslation();
  const heading = useRef<HTMLHeadingElement>(null);
  const header = useRef<HTMLElement>(null);
  usePublishedHeight(header);
  useEffect(() => {
    // A screen reader hears the new screen's title, and the tab order starts from there.
    if (firstScreen) firstScreen = false;
    else heading.current?.focus({ preventScroll: true });
  }, []);
  useEffect(() => {
    document.title = typeof title === 'string' ? `${title} · ${APP_NAME}` : APP_NAME;
  }, [title]);

  return (
    <header
      ref={header}
      className="sticky top-[var(--offline-banner-height,0px)] z-30 -mx-4 mb-4 border-b border-transparent bg-background/90 px-4 lg:-mx-8 lg:px-8 pt-[max(0.75rem,env(safe-area-inset-top))] pb-3 backdrop-blur supports-[backdrop-filter]:bg-background/75"
    >
      <div className="flex items-center gap-3">
        {backTo ? (
          <Link
            to={backTo}
            aria-label={t('Back')}
            className="-ms-2 flex size-11 shrink-0 items-center justify-center rounded-full text-foreground hover:bg-surface-muted"
          >
            <ArrowLeft className="size-5" aria-hidden="true" />
          </Link>
        ) : null}
        <div className="min-w-0 flex-1">
          <h1
            ref={heading}
            tabIndex={-1}
            className="line-clamp-2 text-xl font-bold tracking-tight break-words focus:outline-none sm:text-2xl"
          >
            {title}
          </h1>
          {/* Two lines at most on a narrow phone, rather than cut off after a few words. */}
          {subtitle ? (
            <p className="line-clamp-2 text-sm text-muted-foreground">{subtitle}</p>
          ) : null}
        </div>
        {actions ? <div className="flex shrink-0 items-center gap-2">{actions}</div> : null}
        {backTo ? null : <AccountButton />}
      </div>
      <div className="print:hidden">
        <SearchBox />
      </div>
    </header>
  );
}

/**
 * The main action of a screen, in its header: a round icon button on a phone (its name
 * still spoken and findable), the icon with its words on a wider screen.
 */
export function HeaderAction({
  label,
  icon: Icon,
  onClick,
}: {
  label: string;
  icon: LucideIcon;
  onClick: () => void;
}) {
  return (
    <Button onClick={onClick} size="icon-phone">
      <Icon className="size-5! sm:size-4!" aria-hidden="true" />
      <span className="sr-only sm:not-sr-only">{label}</span>
    </Button>
  );
}
