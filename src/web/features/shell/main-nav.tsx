/**
 * The navigation of every screen (CONTRACT §2, §6 'Desktop'): one `nav` landmark, 'Main',
 * with Timeline, List, Add, Share and Contacts. On a phone it is the bottom bar; from 1024 px
 * wide it is a side bar down the left, with 'Health Records' under them (a group that folds:
 * each record type, Vitals among them, Documents and Growth), Search, and the keyboard
 * shortcuts. Printing leaves it out.
 */
import {
  BookUser,
  ChevronRight,
  ClipboardList,
  FileText,
  House,
  Keyboard,
  Plus,
  Search,
  Share2,
  TrendingUp,
  type LucideIcon,
} from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { APP_NAME } from '../../../shared/constants';
import { recordIdentities } from '../../../shared/records/catalogue';
import { SCREENS } from '../../../shared/screen-paths';
import { cn } from '../../lib/cn';
import { recordIcons } from '../../lib/record-icons';

/** A link of the bar: a tab on a phone, a row of the side bar on a desktop. */
function NavItem({
  to,
  label,
  icon: Icon,
  end,
  desktopOnly = false,
}: {
  to: string;
  label: string;
  icon: LucideIcon;
  end?: boolean;
  /** Only in the side bar: the bottom bar keeps its five. */
  desktopOnly?: boolean;
}) {
  return (
    <NavLink
      to={to}
      end={end}
      className={({ isActive }) =>
        cn(
          'min-h-14 flex-1 flex-col items-center justify-center gap-0.5 rounded-xl text-xs font-medium transition-colors',
          'lg:min-h-10 lg:flex-none lg:flex-row lg:justify-start lg:gap-3 lg:px-3 lg:text-sm',
          desktopOnly ? 'hidden lg:flex' : 'flex',
          isActive
            ? 'text-primary lg:bg-primary-soft'
            : 'text-muted-foreground hover:text-foreground lg:text-foreground lg:hover:bg-surface-muted',
        )
      }
    >
      <Icon className="size-6 lg:size-5" aria-hidden="true" />
      <span>{label}</span>
    </NavLink>
  );
}

/** The record types in the side bar's group (Contacts is a row of the bar itself). */
const groupedTypes = recordIdentities.filter(
  (identity) => identity.menu && identity.type !== 'contact',
);

const RECORDS_OPEN_KEY = 'kin-health.side-bar.records-open';

/**
 * Whether the side bar's 'Health Records' group is open: closed until the user opens it (its
 * links would otherwise name the List screen's cards a second time), then as they left it.
 */
function useRecordsOpen(): [boolean, (open: boolean) => void] {
  const [open, setOpen] = useState(() => {
    try {
      return localStorage.getItem(RECORDS_OPEN_KEY) === 'true';
    } catch {
      return false;
    }
  });
  return [
    open,
    (next) => {
      if (next === open) return;
      setOpen(next);
      try {
        localStorage.setItem(RECORDS_OPEN_KEY, String(next));
      } catch {
        // private browsing: remembered for this page only
      }
    },
  ];
}

export function MainNav({
  onAdd,
  onAddIntent,
  onShortcuts,
}: {
  onAdd: () => void;
  /** The pointer or focus reached Add: what it opens can start loading. */
  onAddIntent?: () => void;
  /** Opens the keyboard shortcuts sheet. */
  onShortcuts: () => void;
}) {
  const { t } = useTranslation();
  const [recordsOpen, rememberRecordsOpen] = useRecordsOpen();
  return (
    <nav
      aria-label={t('Main')}
      className={cn(
        'fixed inset-x-0 bottom-0 z-40 border-t border-border bg-surface/95 pb-safe backdrop-blur supports-[backdrop-filter]:bg-surface/85 print:hidden',
        'lg:inset-y-0 lg:end-auto lg:w-60 lg:overflow-y-auto lg:border-t-0 lg:border-e lg:pb-0',
      )}
    >
      <div className="mx-auto flex max-w-2xl items-center gap-1 px-2 py-1 lg:mx-0 lg:max-w-none lg:flex-col lg:items-stretch lg:gap-0.5 lg:px-3 lg:py-5">
        <p className="hidden px-3 pb-4 text-lg font-bold tracking-tight text-primary lg:order-first lg:block">
          {APP_NAME}
        </p>
        <NavItem to={SCREENS.timeline} label={t('Timeline')} icon={House} end />
        <NavItem to={SCREENS.list} label={t('List')} icon={ClipboardList} />
        <div className="flex flex-1 justify-center lg:order-first lg:mb-3 lg:flex-none">
          <button
            type="button"
            onClick={onAdd}
            onPointerEnter={onAddIntent}
            onPointerDown={onAddIntent}
            onFocus={onAddIntent}
            aria-label={t('Add')}
            aria-keyshortcuts="N"
            className={cn(
              '-mt-7 flex size-15 items-center justify-center rounded-full bg-primary text-primary-foreground shadow-lg ring-4 ring-background transition-transform hover:bg-primary-hover active:scale-95',
              'lg:mt-0 lg:h-11 lg:w-full lg:gap-2 lg:rounded-xl lg:text-sm lg:font-semibold lg:shadow-sm lg:ring-0 lg:active:scale-100',
            )}
          >
            <Plus className="size-7 lg:size-5" aria-hidden="true" />
            <span className="hidden lg:inline" aria-hidden="true">
              {t('Add')}
            </span>
          </button>
        </div>
        <NavItem to={SCREENS.share} label={t('Share')} icon={Share2} />
        <NavItem to="/contacts" label={t('Contacts')} icon={BookUser} />

        <details
          open={recordsOpen}
          onToggle={(event) => rememberRecordsOpen(event.currentTarget.open)}
          className="group mt-3 hidden lg:block"
        >
          <summary className="flex min-h-10 cursor-pointer list-none items-center gap-2 rounded-xl px-3 text-xs font-semibold tracking-wide text-muted-foreground uppercase hover:bg-surface-muted [&::-webkit-details-marker]:hidden">
            <ChevronRight
              className="size-4 transition-transform group-open:rotate-90"
              aria-hidden="true"
            />
            {t('Health Records')}
          </summary>
          {/*
            Rendered only while open: a closed group's links are skipped by rendering, and a
            link's colour transition begun there (it became the current page) never ends.
          */}
          {recordsOpen ? (
            <div className="flex flex-col gap-0.5">
              {groupedTypes.map((identity) => (
                <NavItem
                  key={identity.type}
                  to={`/${identity.path}`}
                  label={t(identity.menu?.title ?? identity.plural)}
                  icon={recordIcons[identity.type]}
                />
              ))}
              <NavItem to={SCREENS.documents} label={t('Documents')} icon={FileText} />
              <NavItem to={SCREENS.growth} label={t('Growth')} icon={TrendingUp} />
            </div>
          ) : null}
        </details>
        <NavItem to={SCREENS.search} label={t('Search')} icon={Search} desktopOnly />
        <button
          type="button"
          onClick={onShortcuts}
          aria-keyshortcuts="Shift+?"
          className="mt-auto hidden min-h-10 items-center gap-3 rounded-xl px-3 text-sm text-muted-foreground hover:bg-surface-muted hover:text-foreground lg:mt-4 lg:flex"
        >
          <Keyboard className="size-5" aria-hidden="true" />
          {t('Keyboard shortcuts')}
        </button>
      </div>
    </nav>
  );
}
