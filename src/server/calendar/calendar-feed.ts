/**
 * The private calendar feed (RFC 5545, by ical-generator): the upcoming visits (title,
 * doctor, place, an hour long) and the shots dated after today (all-day) of everyone
 * the account keeps records for, or of one person, and the vaccine doses their schedule
 * has due from today on (all-day, the vaccine and the person's name). Nothing else: no
 * diagnosis, condition,
 * medication or note ever reaches a calendar app. Times are UTC; a record's UID is its id,
 * and its SEQUENCE grows with each change (seconds between its creation and its last
 * change), so calendar apps update the event they have rather than adding another.
 */
import { createHash } from 'node:crypto';
import ical, { type ICalEventData } from 'ical-generator';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import { shotDefinition } from '../../shared/records/shots';
import { ownedRows } from '../access/scope';
import type { DB } from '../db/schema';
import type { CalendarLinkRow } from './calendar-links';
import { accountMemberPlans } from '../vaccines/member-plans';
import { trOnce } from '../../shared/i18n/translate';

/** The most events of each kind a feed holds, soonest first. */
const MAX_EVENTS = 1000;
const VISIT_MINUTES = 60;

export const CALENDAR_CONTENT_TYPE = 'text/calendar; charset=utf-8';

interface Timed {
  id: string;
  family_member_id: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * Feeds written lately, by a digest of everything written into them (the calendar's name and
 * every event's fields): a calendar app asks for the same feed every hour, and writing a
 * thousand events in iCalendar's text is most of a feed's time (ical-generator, about 20 ms
 * for the benchmark's 0.2 MB). Any change to an event, a new or a removed one, or another
 * day's vaccine doses makes another digest. At most 4 MB of text is kept.
 */
const writtenFeeds = new LRUCache<string, string>({
  maxSize: 4 * 1024 * 1024,
  sizeCalculation: (text) => Math.max(1, text.length),
});

/**
 * A digest of every field of every event, whatever the fields are: a date by its time, text
 * as it is, anything else as JSON (JSON.stringify of the events themselves spent most of its
 * time writing their dates as text).
 */
function digestOf(name: string, events: readonly ICalEventData[]): string {
  const digest = createHash('sha256').update(name);
  for (const event of events) {
    let fields = '';
    for (const [field, value] of Object.entries(event)) {
      const written =
        value instanceof Date
          ? String(value.getTime())
          : typeof value === 'object' && value !== null
            ? JSON.stringify(value)
            : String(value);
      fields += `\u0001${field}\u0002${written}`;
    }
    digest.update(`${fields}\u0003`);
  }
  return digest.digest('base64');
}

/** The feed's text: written, or the same text written lately. */
function feedText(name: string, events: ICalEventData[]): string {
  const key = digestOf(name, events);
  const written = writtenFeeds.get(key);
  if (written !== undefined) return written;
  const text = ical({
    name,
    prodId: { company: 'Kin Health', product: 'Kin Health', language: 'EN' },
    ttl: 60 * 60,
    events,
  }).toString();
  writtenFeeds.set(key, text);
  return text;
}

const sequenceOf = (row: Timed) =>
  Math.max(0, Math.floor((Date.parse(row.updated_at) - Date.parse(row.created_at)) / 1000));

export async function calendarFeed(
  db: Kysely<DB>,
  link: CalendarLinkRow,
  clock: { now: string; today: string },
): Promise<string> {
  const userId = link.user_id;
  // A feed says the same few things many times over ('Shot: MMR', a doctor's name).
  const tr = trOnce();
  const members = new Map(
    (await ownedRows(db, 'family_members', userId).select(['id', 'name']).execute()).map(
      (member) => [member.id, member.name],
    ),
  );
  const onePerson = link.person_id !== null;
  const whose = (row: Timed) => {
    const name = row.family_member_id ? members.get(row.family_member_id) : undefined;
    return !onePerson && name ? ` (${name})` : '';
  };
  const member = link.family_member_id;
  const visits = (await ownedRows(db, 'visits', userId)
    .select(['id', 'visit_name', 'doctor_name', 'office_name', 'visit_date'])
    .select(['family_member_id', 'created_at', 'updated_at'])
    .where('visit_date', '>=', clock.now)
    .$if(onePerson, (query) => query.where('family_member_id', member ? '=' : 'is', member))
    .orderBy('visit_date')
    .limit(MAX_EVENTS)
    .execute()) as unknown as (Timed & {
    visit_name: string;
    doctor_name: string | null;
    office_name: string | null;
    visit_date: string;
  })[];
  // The shots not given yet (isShotGiven), as the Shots list's 'Upcoming' selects them: one
  // dated today has been given, and is no appointment.
  const { upcoming } = shotDefinition.views;
  const shots = (await ownedRows(db, 'shots', userId)
    .select(['id', 'shot_name', 'location', 'date_administered'])
    .select(['family_member_id', 'created_at', 'updated_at'])
    .where('date_administered', upcoming.comparison, clock.today)
    .$if(onePerson, (query) => query.where('family_member_id', member ? '=' : 'is', member))
    .orderBy('date_administered')
    .limit(MAX_EVENTS)
    .execute()) as unknown as (Timed & {
    shot_name: string;
    location: string | null;
    date_administered: string;
  })[];

  const events: ICalEventData[] = [
    ...visits.map((visit) => {
      const start = new Date(visit.visit_date);
      return {
        id: `${visit.id}@kin-health`,
        sequence: sequenceOf(visit),
        stamp: new Date(visit.updated_at),
        start,
        end: new Date(start.getTime() + VISIT_MINUTES * 60_000),
        summary: `${visit.visit_name}${whose(visit)}`,
        description: visit.doctor_name ? tr('Doctor: {name}', { name: visit.doctor_name }) : null,
        location: visit.office_name,
      };
    }),
    ...shots.map((shot) => ({
      id: `${shot.id}@kin-health`,
      sequence: sequenceOf(shot),
      stamp: new Date(shot.updated_at),
      start: new Date(`${shot.date_administered}T00:00:00.000Z`),
      allDay: true,
      summary: `${tr('Shot: {name}', { name: shot.shot_name })}${whose(shot)}`,
      location: shot.location,
    })),
  ];
  events.push(
    ...(await vaccineEvents(db, userId, onePerson ? member : undefined, clock.today, tr)),
  );
  const personName = member ? members.get(member) : undefined;
  return feedText(personName ? `Kin Health: ${personName}` : 'Kin Health', events);
}

/** How far ahead the feed lists vaccine doses. */
const VACCINE_DAYS_AHEAD = 366;

/**
 * An all-day event per vaccine dose not yet given whose due date is from today on, for the
 * members with a date of birth (of one member, when `onlyMember` is given; `null` is the
 * account holder, who has no date of birth), by the schedule the account follows.
 */
async function vaccineEvents(
  db: Kysely<DB>,
  userId: string,
  onlyMember: string | null | undefined,
  today: string,
  tr: ReturnType<typeof trOnce>,
): Promise<ICalEventData[]> {
  if (onlyMember === null) return [];
  const horizon = new Date(`${today}T00:00:00.000Z`);
  horizon.setUTCDate(horizon.getUTCDate() + VACCINE_DAYS_AHEAD);
  const until = horizon.toISOString().slice(0, 10);
  const plans = await accountMemberPlans(
    db,
    userId,
    today,
    onlyMember ? { onlyMembers: [onlyMember] } : {},
  );
  // The plan is the day's: its doses were last revised as the day began (not each time the
  // feed is written, which would make every feed a new one).
  const planned = new Date(`${today}T00:00:00.000Z`);
  return plans.flatMap(({ member: person, doses }) => {
    return doses
      .filter((dose) => dose.status !== 'Done' && dose.due >= today && dose.due <= until)
      .map((dose) => ({
        id: `${person.id}-${dose.vaccine}-${dose.dose}@kin-health-vaccine`,
        stamp: planned,
        start: new Date(`${dose.due}T00:00:00.000Z`),
        allDay: true,
        summary: tr('Vaccine: {vaccine} dose {dose} ({name})', {
          vaccine: tr(dose.vaccine),
          dose: dose.dose,
          name: person.name,
        }),
      }));
  });
}
