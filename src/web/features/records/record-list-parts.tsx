/**
 * The pieces every record list is made of: the screen frame with its add button and
 * member filter, the record card, tab labels with counts, and the paged cards; and the
 * whole page of a type listed as cards only.
 */
import { ChevronRight, Plus, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import type { RecordDefinition, StoredRecord } from '../../../shared/records/definition';
import { MemberBadge } from '../../components/member-badge';
import { Loading } from '../../components/ui/feedback';
import { LoadMore } from '../../components/ui/load-more';
import { formatNumber } from '../../../shared/dates';
import { cn } from '../../lib/cn';
import { RecordTypeIcon } from '../../components/record-type-icon';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { ListEmptyState } from '../family-members/list-empty-state';
import { FamilyFilter } from '../family-members/member-filter';
import { usePersonInView, withPerson } from '../family-members/person-in-view';
import { HeaderAction, PageHeader } from '../shell/page-header';
import { TAB_PARAM } from './list-location';
import { useRecordList } from './record-queries';

export function RecordListScreen({
  definition,
  addLabel,
  memberFilter = definition.memberLinked,
  topLevel = false,
  children,
}: {
  definition: RecordDefinition;
  /** The add button's name, e.g. 'Add New Visit': a key of the catalogue. */
  addLabel: string;
  memberFilter?: boolean;
  /** A screen of the bottom navigation: no back arrow, the account avatar instead. */
  topLevel?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [person] = usePersonInView();
  // The form opens on the person the list is filtered to (CONTRACT.md §6).
  const add = () => navigate(withPerson(`/${definition.path}/new`, person));
  return (
    <>
      <PageHeader
        title={t(definition.plural)}
        backTo={topLevel ? undefined : '/list'}
        actions={<HeaderAction label={t(addLabel)} icon={Plus} onClick={add} />}
      />
      {memberFilter ? <FamilyFilter /> : null}
      {children}
    </>
  );
}

export function RecordCard({
  definition,
  id,
  title,
  details,
  member,
  aside,
  badges,
  dimmed = false,
}: {
  definition: RecordDefinition;
  id: string;
  title: string;
  details?: ReactNode;
  member?: { name: string | null; color: string | null };
  aside?: ReactNode;
  badges?: ReactNode;
  dimmed?: boolean;
}) {
  // The detail keeps the list's person, for its way back and its edit form.
  const [person] = usePersonInView();
  return (
    <Link
      to={withPerson(`/${definition.path}/${id}`, person)}
      className={cn(
        'group relative flex items-center gap-3 overflow-hidden rounded-2xl border border-border p-4 transition-colors hover:border-primary',
        // Dimmed, yet every word keeps its AA contrast.
        dimmed
          ? 'border-dashed bg-surface-muted shadow-none'
          : 'bg-surface shadow-[0_1px_2px_rgb(15_31_36/0.05)]',
      )}
    >
      {member?.color ? (
        <span
          className="absolute inset-y-0 start-0 w-1"
          style={{ backgroundColor: member.color }}
          aria-hidden="true"
        />
      ) : null}
      <RecordTypeIcon type={definition.type} muted={dimmed} />
      <span className="min-w-0 flex-1 space-y-0.5">
        <span className="flex flex-wrap items-center gap-2">
          <span className={cn('truncate font-semibold', dimmed && 'text-muted-foreground')}>
            {title}
          </span>
          {badges}
        </span>
        {details ? (
          <span className="block space-y-0.5 text-sm wrap-anywhere text-muted-foreground">
            {details}
          </span>
        ) : null}
        {member?.name ? <MemberBadge name={member.name} color={member.color} /> : null}
      </span>
      {aside ? <span className="shrink-0 text-end">{aside}</span> : null}
      <ChevronRight className="size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
    </Link>
  );
}

const BADGE_TONES = {
  primary: 'bg-primary-soft text-primary',
  warning: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  neutral: 'bg-surface-muted text-muted-foreground',
} as const;

/** A small pill, for a status or a kind. */
export function Badge({
  children,
  tone = 'neutral',
}: {
  children: ReactNode;
  tone?: 'neutral' | 'primary' | 'warning';
}) {
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold',
        BADGE_TONES[tone],
      )}
    >
      {children}
    </span>
  );
}

/**
 * A tab's name with its count, as SPEC.md writes it: 'Upcoming (3)' or 'Current(3)'. The
 * count is an inline span, so its accessible name and text stay exactly that. The name is a
 * key of the catalogue.
 */
export function TabLabel({
  label,
  count,
  spaced,
}: {
  label: string;
  count: number | undefined;
  spaced: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      {t(label)}
      {spaced ? ' ' : ''}
      <span
        className={cn(
          'rounded-full bg-primary-soft px-1.5 py-0.5 text-xs text-primary tabular-nums',
          !spaced && 'ms-1',
        )}
      >
        ({formatNumber(count ?? 0, { useGrouping: false })})
      </span>
    </>
  );
}

/** A list's link to its form ('Schedule your first visit'), for the person in view. */
export function EmptyLink({ to, children }: { to: string; children: ReactNode }) {
  const [person] = usePersonInView();
  return (
    <Link
      to={withPerson(to, person)}
      className="font-semibold text-primary underline-offset-4 hover:underline"
    >
      {children}
    </Link>
  );
}

type RecordList<D extends RecordDefinition> = ReturnType<typeof useRecordList<D>>;

function ViewPanel<D extends RecordDefinition>({
  definition,
  view,
  member,
  render,
}: {
  definition: D;
  view: string;
  member: string | undefined;
  render: (list: RecordList<D>) => ReactNode;
}) {
  const list = useRecordList(definition, { view, member });
  if (list.isPending) return <Loading />;
  if (list.isError && list.items.length === 0) return null;
  return render(list);
}

/**
 * A list split into tabs by the type's views (upcoming/past, current/past), each tab named
 * with its count, each loading its own pages.
 */
export function RecordViewTabs<D extends RecordDefinition>({
  definition,
  tabs,
  spaced,
  render,
  extra,
}: {
  definition: D;
  /** Each tab's view and name (a key of the catalogue). */
  tabs: readonly { view: string; label: string }[];
  /** Whether a space separates the tab's name from its count. */
  spaced: boolean;
  render: (view: string, list: RecordList<D>) => ReactNode;
  /** A last tab that is not a view of the list (the shots' 'Schedule'), named by a key. */
  extra?: { value: string; label: string; content: ReactNode };
}) {
  const { t } = useTranslation();
  const [member] = usePersonInView();
  // The tab lives in the URL (`?tab=`, none for the first): the timeline links to the shots'
  // Schedule, a save returns to the tab that holds the record, and Back finds it again.
  const [searchParams, setSearchParams] = useSearchParams();
  const asked = searchParams.get(TAB_PARAM);
  const first = tabs[0]?.view ?? '';
  const tab =
    asked && (asked === extra?.value || tabs.some(({ view }) => view === asked)) ? asked : first;
  const setTab = (value: string) =>
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === first) next.delete(TAB_PARAM);
        else next.set(TAB_PARAM, value);
        return next;
      },
      { replace: true },
    );
  const listView = tabs.some(({ view }) => view === tab) ? tab : (tabs[0]?.view ?? '');
  const counts = useRecordList(definition, { view: listView, member }).counts;
  return (
    <Tabs value={tab} onValueChange={setTab}>
      <TabsList className="mb-4">
        {tabs.map(({ view, label }) => (
          <TabsTrigger key={view} value={view}>
            <TabLabel label={label} count={counts?.[view]} spaced={spaced} />
          </TabsTrigger>
        ))}
        {extra ? <TabsTrigger value={extra.value}>{t(extra.label)}</TabsTrigger> : null}
      </TabsList>
      {tabs.map(({ view }) => (
        <TabsContent key={view} value={view}>
          <ViewPanel
            definition={definition}
            view={view}
            member={member}
            render={(list) => render(view, list)}
          />
        </TabsContent>
      ))}
      {extra ? <TabsContent value={extra.value}>{extra.content}</TabsContent> : null}
    </Tabs>
  );
}

/** The cards of a loaded list; the next page loads as the list's end scrolls into view. */
export function RecordCards<D extends RecordDefinition>({
  list,
  renderItem,
}: {
  list: RecordList<D>;
  renderItem: (record: StoredRecord<D>) => ReactNode;
}) {
  return (
    <>
      <ul className="space-y-2">
        {list.items.map((record) => (
          <li key={record.id}>{renderItem(record)}</li>
        ))}
      </ul>
      <LoadMore query={list} className="mt-3" />
    </>
  );
}

/** A list without tabs: every record of the type, for the member the filter names. */
export function RecordPlainList<D extends RecordDefinition>({
  definition,
  render,
}: {
  definition: D;
  render: (list: RecordList<D>) => ReactNode;
}) {
  const [member] = usePersonInView();
  const list = useRecordList(definition, { member: definition.memberLinked ? member : undefined });
  if (list.isPending) return <Loading />;
  if (list.isError && list.items.length === 0) return null;
  return render(list);
}

/** The list page of a type shown as cards only, with no tabs or sections. */
export function RecordCardsPage<D extends RecordDefinition>({
  definition,
  addLabel,
  topLevel,
  empty,
  renderItem,
}: {
  definition: D;
  addLabel: string;
  topLevel?: boolean;
  /** What the page says when there is no record yet (a key of the catalogue). */
  empty: { icon: LucideIcon; title: string };
  renderItem: (record: StoredRecord<D>) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <RecordListScreen definition={definition} addLabel={addLabel} topLevel={topLevel}>
      <RecordPlainList
        definition={definition}
        render={(list) =>
          list.items.length === 0 ? (
            <ListEmptyState
              icon={empty.icon}
              title={t(empty.title)}
              memberLinked={definition.memberLinked}
            />
          ) : (
            <RecordCards list={list} renderItem={renderItem} />
          )
        }
      />
    </RecordListScreen>
  );
}
