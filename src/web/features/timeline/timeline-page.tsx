/**
 * / : the timeline. Events of every dated record, grouped by day, newest first, a page at a
 * time as the user scrolls; the family-member strip filters them. On a phone Today's
 * Medications and Vaccines due stand above the events; from 1024 px wide they are in a side
 * panel beside them, 'Today', with the upcoming visits, sticky as the events scroll.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { CalendarDays, ChevronRight, Sparkles } from 'lucide-react';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { APP_NAME, APP_TAGLINE } from '../../../shared/constants';
import { CARD_TIME_FORMAT, DAY_GROUP_FORMAT, formatDate, localToday } from '../../../shared/dates';
import { tr } from '../../../shared/i18n/translate';
import { toasts } from '../../../shared/messages';
import { firstName } from '../../../shared/names';
import { recordCatalogue } from '../../../shared/records/catalogue';
import {
  groupTimeline,
  showsTodayMarker,
  splitUpcomingVisits,
  TIMELINE_TYPE_LABELS,
  type TimelineDay,
  type TimelineEvent,
} from '../../../shared/timeline';
import { Card } from '../../components/ui/card';
import { Loading } from '../../components/ui/feedback';
import { LoadMore } from '../../components/ui/load-more';
import { MemberBadge } from '../../components/member-badge';
import { LabFlagBadge } from '../../components/lab-flag-badge';
import { timelineApi } from '../../lib/api';
import { cn } from '../../lib/cn';
import { queryKeys } from '../../lib/query-client';
import { DocumentIcon, RecordTypeIcon } from '../../components/record-type-icon';
import { showError } from '../../lib/toast';
import { useWideScreen } from '../../lib/wide-screen';
import { TodaysMedications } from '../doses/todays-medications';
import { FamilyFilter } from '../family-members/member-filter';
import { usePersonInView } from '../family-members/person-in-view';
import { useProfile } from '../profile-settings/profile-queries';
import { PageHeader } from '../shell/page-header';
import { QuickSymptomPrompt } from '../symptoms/quick-symptom-prompt';
import { VaccineDosesDue } from './vaccine-doses-due';
import { ListEmptyState } from '../family-members/list-empty-state';

function EventCard({ event }: { event: TimelineEvent }) {
  const { t } = useTranslation();
  const path = event.type === 'document' ? 'documents' : recordCatalogue[event.type].path;
  return (
    <Link
      to={`/${path}/${event.id}`}
      className="group flex items-center gap-3 rounded-2xl border border-border bg-surface p-3.5 shadow-[0_1px_2px_rgb(15_31_36/0.05)] transition-colors hover:border-primary"
    >
      {event.type === 'document' ? <DocumentIcon /> : <RecordTypeIcon type={event.type} />}
      <span className="min-w-0 flex-1">
        <span className="flex items-center gap-2">
          <span className="truncate font-semibold">{event.name}</span>
          {event.mark ? <LabFlagBadge flag={event.mark} /> : null}
        </span>
        <span className="flex flex-wrap items-center gap-x-3 gap-y-0.5 text-sm text-muted-foreground">
          <span>{t(TIMELINE_TYPE_LABELS[event.type])}</span>
          {event.date.length > 10 ? <span>{formatDate(event.date, CARD_TIME_FORMAT)}</span> : null}
          <MemberBadge name={event.family_member_name} color={event.family_member_color} />
        </span>
      </span>
      <ChevronRight
        className="size-5 text-muted-foreground transition-transform group-hover:translate-x-0.5"
        aria-hidden="true"
      />
    </Link>
  );
}

/** A day's events under its date: an h2 in the events column, an h3 in the side panel. */
function DayGroup({
  group,
  today,
  level: Heading = 'h2',
}: {
  group: TimelineDay;
  today: string;
  level?: 'h2' | 'h3';
}) {
  return (
    <section aria-labelledby={`day-${group.day}`}>
      <Heading
        id={`day-${group.day}`}
        className={cn(
          'mb-2 text-sm font-semibold',
          group.day === today ? 'text-primary' : 'text-muted-foreground',
        )}
      >
        {group.label}
      </Heading>
      <ul className="space-y-2">
        {group.events.map((event) => (
          <li key={`${event.type}-${event.id}`}>
            <EventCard event={event} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The side panel's visits after today, soonest first, under their days. */
function UpcomingVisits({ days, today }: { days: TimelineDay[]; today: string }) {
  const { t } = useTranslation();
  if (days.length === 0) return null;
  return (
    <section aria-labelledby="upcoming-visits-heading" className="mb-5">
      <h2 id="upcoming-visits-heading" className="mb-2 text-sm font-semibold text-primary">
        {t('Upcoming visits')}
      </h2>
      <div className="space-y-4">
        {days.map((group) => (
          <DayGroup key={group.day} group={group} today={today} level="h3" />
        ))}
      </div>
    </section>
  );
}

export function TimelinePage() {
  const { t } = useTranslation();
  const profile = useProfile();
  const [member] = usePersonInView();
  const timeline = useInfiniteQuery({
    queryKey: queryKeys.timeline(member),
    queryFn: ({ pageParam }) => timelineApi.list({ member, cursor: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next ?? undefined,
  });

  useEffect(() => {
    if (timeline.error) showError(tr(toasts.loadDataError), timeline.error);
  }, [timeline.error]);

  const events = useMemo(
    () => timeline.data?.pages.flatMap((page) => page.events) ?? [],
    [timeline.data],
  );
  const wide = useWideScreen();
  const today = localToday();
  // At a desk the visits after today move to the side panel; on a phone they stay on top.
  const { upcoming, rest } = useMemo(
    () => (wide ? splitUpcomingVisits(events, today) : { upcoming: [], rest: events }),
    [events, today, wide],
  );
  const days = useMemo(() => groupTimeline(rest), [rest]);
  const doses = (
    <>
      <TodaysMedications member={member} />
      <VaccineDosesDue member={member} />
    </>
  );
  const column = (
    <>
      <section
        aria-label={APP_NAME}
        className="mb-5 overflow-hidden rounded-3xl bg-gradient-to-br from-[var(--banner-from)] to-[var(--banner-to)] p-5 text-white shadow-md"
      >
        <div className="flex items-start gap-3">
          <span className="flex size-11 shrink-0 items-center justify-center rounded-2xl bg-white/15">
            <Sparkles className="size-6" aria-hidden="true" />
          </span>
          <div>
            <h2 className="text-lg font-bold">{APP_NAME}</h2>
            <p className="text-sm text-white/90">{t(APP_TAGLINE)}</p>
          </div>
        </div>
      </section>
      <FamilyFilter />
      <QuickSymptomPrompt personInView={member} />
      {wide ? null : doses}
      {timeline.isPending ? (
        <Loading />
      ) : events.length === 0 ? (
        timeline.isError ? null : (
          <ListEmptyState
            icon={CalendarDays}
            title={
              member
                ? t('No health events yet')
                : t('No health events yet. Tap + to add your first entry.')
            }
          />
        )
      ) : (
        <div className="space-y-6">
          {showsTodayMarker(days, today) || (days.length === 0 && upcoming.length > 0) ? (
            <section aria-labelledby="today-heading">
              <h2 id="today-heading" className="mb-2 text-sm font-semibold text-primary">
                {t('Today - {date}', { date: formatDate(today, DAY_GROUP_FORMAT) })}
              </h2>
              <Card className="border-dashed p-4 text-sm text-muted-foreground">
                {t('No events today')}
              </Card>
            </section>
          ) : null}
          {days.map((group) => (
            <DayGroup key={group.day} group={group} today={today} />
          ))}
          <LoadMore query={timeline} label={t('Show earlier events')} />
        </div>
      )}
    </>
  );
  const header = (
    <PageHeader title={t('Welcome, {name}!', { name: firstName(profile.data?.full_name) })} />
  );
  if (!wide) {
    return (
      <>
        {header}
        {column}
      </>
    );
  }
  // data-wide: the layout widens its column for this page (shell/app-layout.tsx). The panel
  // sticks below the header (its height is published by page-header.tsx); with nothing in it,
  // it is not there.
  return (
    <>
      {header}
      <div data-wide="" className="grid grid-cols-[minmax(0,1fr)_20rem] items-start gap-8">
        <div className="min-w-0">{column}</div>
        <aside
          aria-label={t('Today')}
          className="sticky top-[calc(var(--page-header-height,6rem)_+_0.5rem)] max-h-[calc(100vh_-_var(--page-header-height,6rem)_-_1rem)] overflow-y-auto empty:hidden"
        >
          {doses}
          <UpcomingVisits days={upcoming} today={today} />
        </aside>
      </div>
    </>
  );
}

export default TimelinePage;
