/**
 * / : the timeline. Events of every dated record, grouped by day, newest first, a page at a
 * time as the user scrolls; the family-member strip filters them.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { CalendarDays, ChevronRight, Sparkles } from 'lucide-react';
import { useEffect, useMemo } from 'react';
import { Link } from 'react-router';
import { APP_NAME, APP_TAGLINE } from '../../../shared/constants';
import { DAY_GROUP_FORMAT, formatDate, localToday } from '../../../shared/dates';
import { toasts } from '../../../shared/messages';
import { firstName } from '../../../shared/names';
import { recordCatalogue } from '../../../shared/records/catalogue';
import {
  groupTimeline,
  showsTodayMarker,
  TIMELINE_TYPE_LABELS,
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
import { TodaysMedications } from '../doses/todays-medications';
import { FamilyFilter } from '../family-members/member-filter';
import { usePersonInView } from '../family-members/person-in-view';
import { useProfile } from '../profile-settings/profile-queries';
import { PageHeader } from '../shell/page-header';
import { VaccineDosesDue } from './vaccine-doses-due';
import { ListEmptyState } from '../family-members/list-empty-state';

function EventCard({ event }: { event: TimelineEvent }) {
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
          <span>{TIMELINE_TYPE_LABELS[event.type]}</span>
          {event.date.length > 10 ? <span>{formatDate(event.date, 'h:mm a')}</span> : null}
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

export function TimelinePage() {
  const profile = useProfile();
  const [member] = usePersonInView();
  const timeline = useInfiniteQuery({
    queryKey: queryKeys.timeline(member),
    queryFn: ({ pageParam }) => timelineApi.list({ member, cursor: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next ?? undefined,
  });

  useEffect(() => {
    if (timeline.error) showError(toasts.loadDataError, timeline.error);
  }, [timeline.error]);

  const events = useMemo(
    () => timeline.data?.pages.flatMap((page) => page.events) ?? [],
    [timeline.data],
  );
  const days = useMemo(() => groupTimeline(events), [events]);
  const today = localToday();
  return (
    <>
      <PageHeader title={`Welcome, ${firstName(profile.data?.full_name)}!`} />
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
            <p className="text-sm text-white/90">{APP_TAGLINE}</p>
          </div>
        </div>
      </section>
      <FamilyFilter />
      <TodaysMedications member={member} />
      <VaccineDosesDue member={member} />
      {timeline.isPending ? (
        <Loading />
      ) : events.length === 0 ? (
        timeline.isError ? null : (
          <ListEmptyState
            icon={CalendarDays}
            title={
              member
                ? 'No health events yet'
                : 'No health events yet. Tap + to add your first entry.'
            }
          />
        )
      ) : (
        <div className="space-y-6">
          {showsTodayMarker(days, today) ? (
            <section aria-labelledby="today-heading">
              <h2 id="today-heading" className="mb-2 text-sm font-semibold text-primary">
                Today - {formatDate(today, DAY_GROUP_FORMAT)}
              </h2>
              <Card className="border-dashed p-4 text-sm text-muted-foreground">
                No events today
              </Card>
            </section>
          ) : null}
          {days.map((group) => (
            <section key={group.day} aria-labelledby={`day-${group.day}`}>
              <h2
                id={`day-${group.day}`}
                className={cn(
                  'mb-2 text-sm font-semibold',
                  group.day === today ? 'text-primary' : 'text-muted-foreground',
                )}
              >
                {group.label}
              </h2>
              <ul className="space-y-2">
                {group.events.map((event) => (
                  <li key={`${event.type}-${event.id}`}>
                    <EventCard event={event} />
                  </li>
                ))}
              </ul>
            </section>
          ))}
          <LoadMore query={timeline} label="Show earlier events" />
        </div>
      )}
    </>
  );
}

export default TimelinePage;
