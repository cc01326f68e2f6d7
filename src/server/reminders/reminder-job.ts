/**
 * The reminder job: every minute (and once at start, to catch up), the reminders whose time
 * has come in the last CATCH_UP window and that no instance has sent are claimed and sent.
 *
 * - Doses: for each time of day whose time (the user's setting, in the user's time zone)
 *   has come, the doses due then and not yet marked, one notification per person.
 * - Visits: the day before and two hours before.
 * - Refills (refill-reminders.ts): at the Morning's time, before a medication runs out and
 *   when its prescription ends.
 * - Vaccine doses of the user's members (by the account's schedule): at the Morning's time,
 *   a week before a dose is due, and on the day it becomes overdue.
 * - Doses of a person shared with an alert, still unmarked some minutes after their time: to
 *   the grantee (missed-dose-alerts.ts).
 *
 * Each goes to the account's devices by web push, by email when it asked, and to its ntfy
 * topic and webhook (notifications/): a dose reminder there with 'Taken' and 'Skip' buttons.
 *
 * The claim is a row of `reminders_sent` with a unique key (user, reminder): inserted with
 * ON CONFLICT DO NOTHING before anything is sent, so one instance of several, or a restarted
 * one, sends each reminder at most once (docs/decisions/0015-reminders.md). Reminders older
 * than the window are never sent: a server down for a day does not wake anyone for
 * yesterday's doses.
 */
import { ownAccess, ownedBy, ownedRow, ownedRows } from '../access/scope';
import type { Kysely } from 'kysely';
import webPush from 'web-push';
import { remindedIn, type DoseSlot, type TodayDose } from '../../shared/doses';
import {
  HIDDEN_MEDICATION_TITLE,
  HIDDEN_VACCINE_TITLE,
  HIDDEN_VISIT_TITLE,
  VACCINE_REMINDER_DAYS_BEFORE,
  VISIT_REMINDER_LEADS,
  type ReminderPayload,
  type ReminderSettings,
} from '../../shared/reminders';
import type { VapidConfig } from '../config';
import type { DB } from '../db/schema';
import { createDoseRepository, type DoseRepository } from '../doses/dose-repository';
import type { Logger } from '../logger';
import { systemClock, type Clock, type Timer } from '../operations/backup-scheduler';
import {
  ALL_SLOTS,
  createReminderRepository,
  slotTime,
  type ReminderRepository,
  type StoredSubscription,
} from './reminder-repository';
import { createMissedDoseAlerts } from './missed-dose-alerts';
import { pushEndpointProblem, sendToPushService, type PushEndpointPolicy } from './push-endpoints';
import { remindRefills } from './refill-reminders';
import { vapidHeaders } from './vapid-headers';
import { clockTimeIn, dayIn, instantOf } from './time-zones';
import { addDays } from '../../shared/date-values';
import { firstName } from '../../shared/names';
import { scheduleTabLink } from '../../shared/vaccines/schedule-setting';
import type { VaccineSchedule } from '../../shared/vaccines/schedules';
import type { MailOutbox } from '../mail/mail-queue';
import type { MailTemplates } from '../mail/mail-templates';
import { accountSchedule, memberPlans, type MemberPlan } from '../vaccines/member-plans';
import type { NotificationOutbox } from '../notifications/notification-queue';
import {
  createDoseActions,
  type DoseActionGroup,
  type DoseActions,
} from '../notifications/dose-actions';
import { key, tr } from '../../shared/i18n/translate';
import { languageOrDefault, type LanguageCode } from '../../shared/i18n/languages';
import { inLanguage } from '../i18n/server-language';

/** What the ntfy topic and webhook are told a reminder is (their delivery log says it). */
const CHANNEL_WHAT = {
  reminder: key('Reminder'),
  medication: key('Medication reminder'),
  visit: key('Visit reminder'),
  vaccine: key('Vaccine reminder'),
  missedDose: key('Missed dose alert'),
  refill: key('Refill reminder'),
};

/** A dose reminder's title, by its time of day (the words around the slot differ by language). */
const DOSE_TITLES: Record<DoseSlot, string> = {
  Morning: key('Morning medication for {person}'),
  Noon: key('Noon medication for {person}'),
  Evening: key('Evening medication for {person}'),
  Night: key('Night medication for {person}'),
};

export const DEFAULT_INTERVAL_MS = 60 * 1000;
/** How late a reminder may still be sent (after a restart, or a slow minute). */
export const DEFAULT_CATCH_UP_MS = 30 * 60 * 1000;
/** Claims older than this are deleted: no reminder that old can be due again. */
const CLAIM_RETENTION_MS = 3 * 24 * 60 * 60 * 1000;
const PUSH_TIMEOUT_MS = 10_000;
/** How long a push service keeps a reminder for a device that is off. */
const PUSH_TTL_SECONDS = 4 * 60 * 60;

export interface ReminderJobOptions {
  db: Kysely<DB>;
  vapid: VapidConfig;
  /** Where reminders may go: push services only, but in the API tests (push-endpoints.ts). */
  pushEndpoints: PushEndpointPolicy;
  logger: Logger;
  /** Where reminders go by email, for accounts with 'Email reminders' on. */
  outbox?: MailOutbox;
  /** Where reminders go to the accounts' ntfy topics and webhooks. */
  notifications?: NotificationOutbox;
  clock?: Clock;
  intervalMs?: number;
  catchUpMs?: number;
}

/** One account's pass: who, their settings, the devices asking for this kind, and when. */
interface Account {
  userId: string;
  userName: string;
  settings: ReminderSettings;
  subscriptions: StoredSubscription[];
  /** Whether this kind of reminder also goes by email. */
  email: boolean;
  /** Whether the account has an ntfy topic or a webhook (they get every kind). */
  channels: boolean;
  userEmail: string;
  now: Date;
  /** The language the account reads in: its reminders are written in it. */
  language: LanguageCode;
}

/** What a reminder to the account's ntfy topic and webhook is about, and the doses it marks. */
export interface ChannelExtras {
  kind: string;
  what: string;
  doses?: DoseActionGroup;
}

type ReminderKind = MailTemplates['reminder']['kind'];

export interface ReminderRun {
  /** Reminders claimed and sent by this run. */
  sent: number;
}

/** What every part of a pass works with: the job's options, resolved, and its repositories. */
interface JobContext {
  db: Kysely<DB>;
  pushEndpoints: PushEndpointPolicy;
  logger: Logger;
  outbox?: MailOutbox;
  notifications?: NotificationOutbox;
  catchUpMs: number;
  reminders: ReminderRepository;
  doses: DoseRepository;
  doseActions: DoseActions;
  vapidHeadersFor: ReturnType<typeof vapidHeaders>;
}

/** A reminder as composed for one account, before it is delivered. */
interface Reminder {
  /** What the lock screen shows (and the ntfy topic and webhook are sent). */
  payload: ReminderPayload;
  /** What an email reminder names; none: not by email. */
  mail?: { name: string; kind: ReminderKind };
  /** What the ntfy topic and webhook are told it is (they get every reminder). */
  channel?: ChannelExtras;
}

/** The job started: when its run under way is over, and how to stop it. */
interface RunningReminderJob {
  /** When the run under way (if any) is over. */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

type VisitLead = (typeof VISIT_REMINDER_LEADS)[number];

/** A visit whose reminder falls in the window, with the name of the person it is for. */
interface DueVisit {
  id: string;
  visit_date: string;
  doctor_name: string | null;
  office_name: string | null;
  family_member_name: string | null;
}

/** A vaccine dose of a member to remind of today: a week ahead, or newly overdue. */
interface DueVaccineDose {
  member: MemberPlan['member'];
  dose: MemberPlan['doses'][number];
  overdueToday: boolean;
}

export function createReminderJob(options: ReminderJobOptions) {
  const context = jobContext(options);
  const clock = options.clock ?? systemClock;
  const intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
  const missedDoses = missedDoseAlerts(context);

  /** One pass over every account with a subscribed device. */
  const runOnce = (now: Date = clock.now()): Promise<ReminderRun> =>
    runPass(context, missedDoses, now);

  /** Runs now (catching up) and then every interval, until stopped. */
  const start = (): RunningReminderJob =>
    startSchedule(() => runOnce(), clock, intervalMs, context.logger);

  return { runOnce, start };
}

function jobContext(options: ReminderJobOptions): JobContext {
  const { db, vapid, pushEndpoints, logger, outbox, notifications } = options;
  return {
    db,
    pushEndpoints,
    logger,
    outbox,
    notifications,
    catchUpMs: options.catchUpMs ?? DEFAULT_CATCH_UP_MS,
    reminders: createReminderRepository(db),
    doses: createDoseRepository(db),
    doseActions: createDoseActions(db),
    vapidHeadersFor: vapidHeaders(vapid),
  };
}

// ---- The schedule ----

/** Runs now, and again an interval after each run is over, until stopped. */
function startSchedule(
  run: () => Promise<unknown>,
  clock: Clock,
  intervalMs: number,
  logger: Logger,
): RunningReminderJob {
  let timer: Timer | null = null;
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = run()
      .catch((error: unknown) => logger.error({ err: error }, 'reminder run failed'))
      .finally(() => {
        if (!stopped) timer = clock.setTimer(tick, intervalMs);
      });
  };
  tick();
  return {
    async settled() {
      await running;
    },
    async stop() {
      stopped = true;
      timer?.cancel();
      await running;
    },
  };
}

// ---- One pass ----

/** One pass: the job's bookkeeping, each reachable account's reminders, missed-dose alerts. */
async function runPass(
  context: JobContext,
  missedDoses: MissedDoseAlerts,
  now: Date,
): Promise<ReminderRun> {
  const { logger } = context;
  await pruneBookkeeping(context, now);
  let sent = 0;
  // Each account's settings and devices, and who has a visit to remind of, in a few reads.
  const accounts = await accountsOf(context, await reachableUsers(context), now);
  const visits = await visiting(context, now);
  for (const account of accounts) {
    try {
      // In the account's language: its titles, its mail, its ntfy buttons.
      sent += await inLanguage(account.language, () =>
        remindAccount(context, account, visits.has(account.userId)),
      );
    } catch (error) {
      logger.error({ err: error }, 'reminders failed for an account');
    }
  }
  try {
    sent += await missedDoses.run(now);
  } catch (error) {
    logger.error({ err: error }, 'missed-dose alerts failed');
  }
  return { sent };
}

/** The job's own bookkeeping, across accounts: claims and dose actions too old to matter. */
async function pruneBookkeeping({ db, doseActions }: JobContext, now: Date): Promise<void> {
  await db
    .deleteFrom('reminders_sent')
    .where('due_at', '<', new Date(now.getTime() - CLAIM_RETENTION_MS).toISOString())
    .execute();
  await doseActions.prune(now);
}

/** Who a reminder can reach: a device subscribed, email reminders, a channel. */
async function reachableUsers({ db, outbox, notifications }: JobContext): Promise<string[]> {
  // A union has no duplicates; the devices' select alone is made to have none.
  const pushed = db.selectFrom('push_subscriptions').select('user_id');
  const others = [
    ...(outbox?.enabled
      ? [db.selectFrom('reminder_settings').select('user_id').where('email_reminders', '=', 1)]
      : []),
    ...(notifications ? [db.selectFrom('notification_channels').select('user_id')] : []),
  ];
  const users = await (
    others.length ? others.reduce((query, other) => query.union(other), pushed) : pushed.distinct()
  ).execute();
  return users.map((user) => user.user_id);
}

/** Accounts as reminders reach them: settings, all their devices, and whether by email. */
async function accountsOf(
  { db, reminders, outbox, notifications }: JobContext,
  userIds: readonly string[],
  now: Date,
): Promise<Account[]> {
  const withChannels = new Set(
    notifications && userIds.length > 0
      ? (
          await db
            .selectFrom('notification_channels')
            .select('user_id')
            .where('user_id', 'in', userIds)
            .execute()
        ).map((row) => row.user_id)
      : [],
  );
  const languages = new Map(
    userIds.length > 0
      ? (
          await db
            .selectFrom('user')
            .select(['id', 'language'])
            .where('id', 'in', userIds)
            .execute()
        ).map((row) => [row.id, row.language])
      : [],
  );
  return [...(await reminders.accounts(userIds)).values()].map((account) => ({
    ...account,
    now,
    language: languageOrDefault(languages.get(account.userId)),
    // By email too: both kinds, when the account asked and mail is set up.
    email: Boolean(outbox?.enabled && account.settings.email_reminders),
    channels: withChannels.has(account.userId),
  }));
}

/** A visit lead's window: visits after `from` and at or before `to` are reminded of now. */
function leadWindow(now: Date, catchUpMs: number, lead: VisitLead): { from: string; to: string } {
  return {
    from: new Date(now.getTime() - catchUpMs + lead.ms).toISOString(),
    to: new Date(now.getTime() + lead.ms).toISOString(),
  };
}

/**
 * The accounts asking for visit reminders that have a visit whose reminder falls in the
 * window: one query a lead for all accounts, so that the others are not asked each minute.
 */
async function visiting({ db, catchUpMs }: JobContext, now: Date): Promise<Set<string>> {
  const asking = db
    .selectFrom('push_subscriptions')
    .select('user_id')
    .where('visit_reminders', '=', 1)
    .union(db.selectFrom('reminder_settings').select('user_id').where('email_reminders', '=', 1))
    .union(db.selectFrom('notification_channels').select('user_id'));
  const found = new Set<string>();
  for (const lead of VISIT_REMINDER_LEADS) {
    const { from, to } = leadWindow(now, catchUpMs, lead);
    const rows = await (
      db as unknown as Kysely<{ visits: { user_id: string; visit_date: string } }>
    )
      .selectFrom('visits')
      .select('user_id')
      .distinct()
      .where('user_id', 'in', asking as never)
      .where('visit_date', '>', from)
      .where('visit_date', '<=', to)
      .execute();
    for (const row of rows) found.add(row.user_id);
  }
  return found;
}

/** One account's reminders of each kind, each to the devices that asked for that kind. */
async function remindAccount(
  context: JobContext,
  { subscriptions, ...account }: Account,
  /** Whether the account has a visit whose reminder falls in the window. */
  visits: boolean,
): Promise<number> {
  if (subscriptions.length === 0 && !account.email && !account.channels) return 0;
  const forDoses = subscriptions.filter((s) => s.medication_reminders);
  const forVisits = subscriptions.filter((s) => s.visit_reminders);
  const forVaccines = subscriptions.filter((s) => s.vaccine_reminders);
  const { email, channels, userId, now } = account;
  let sent = 0;
  if (forDoses.length || email || channels) {
    const doseAccount = { ...account, subscriptions: forDoses };
    sent += await remindDoses(context, doseAccount);
    sent += await remindRefills({
      ...account,
      catchUpMs: context.catchUpMs,
      doses: context.doses,
      claim: (reminderKey, about) => claim(context.db, userId, reminderKey, about, now),
      deliver: (payload, person) =>
        deliver(context, doseAccount, {
          payload,
          mail: { name: person, kind: 'Refill due' },
          channel: { kind: 'refill', what: CHANNEL_WHAT.refill },
        }),
    });
  }
  if (visits && (forVisits.length || email || channels)) {
    sent += await remindVisits(context, { ...account, subscriptions: forVisits });
  }
  if (forVaccines.length || channels) {
    sent += await remindVaccines(context, { ...account, subscriptions: forVaccines });
  }
  return sent;
}

// ---- Finding what is due, and composing each kind of reminder ----

/** The days (in the time zone) the catch-up window touches: one, or two across midnight. */
function windowDays(timeZone: string, earliest: Date, now: Date): string[] {
  return [...new Set([dayIn(timeZone, earliest), dayIn(timeZone, now)])];
}

/** The times of day whose time, on the day, has come in the window. */
function dueSlots(
  settings: ReminderSettings,
  day: string,
  earliest: Date,
  now: Date,
): { slot: DoseSlot; dueAt: Date }[] {
  return ALL_SLOTS.map((slot) => ({
    slot,
    dueAt: instantOf(settings.time_zone, day, slotTime(settings, slot)),
  })).filter(({ dueAt }) => dueAt <= now && dueAt > earliest);
}

/** The doses of a time of day not yet marked, by person ('' for the account holder). */
function unmarkedByPerson(doses: readonly TodayDose[], slot: DoseSlot): Map<string, TodayDose[]> {
  const byPerson = new Map<string, TodayDose[]>();
  for (const dose of doses) {
    // A dose at 'Any time' is reminded with the Morning's.
    if (remindedIn(dose.slot) !== slot || dose.mark) continue;
    const person = dose.family_member_id ?? '';
    byPerson.set(person, [...(byPerson.get(person) ?? []), dose]);
  }
  return byPerson;
}

async function remindDoses(context: JobContext, account: Account): Promise<number> {
  const { userId, settings, now } = account;
  let sent = 0;
  const earliest = new Date(now.getTime() - context.catchUpMs);
  for (const day of windowDays(settings.time_zone, earliest, now)) {
    const slots = dueSlots(settings, day, earliest, now);
    if (slots.length === 0) continue;
    // Reminders are of the user's own persons; a shared person's are their owner's.
    const today = await context.doses.today(ownAccess(userId), day);
    for (const { slot, dueAt } of slots) {
      for (const [person, due] of unmarkedByPerson(today.doses, slot)) {
        const groupKey = `dose ${day} ${slot} ${person || 'self'}`;
        if (!(await claim(context.db, userId, groupKey, dueAt, now))) continue;
        await deliver(context, account, doseReminder(account, day, slot, groupKey, due));
        sent += 1;
      }
    }
  }
  return sent;
}

/** One person's doses at a time of day: by email too, and 'Taken'/'Skip' on the channels. */
function doseReminder(
  { userId, userName, settings }: Account,
  day: string,
  slot: DoseSlot,
  groupKey: string,
  due: TodayDose[],
): Reminder {
  const name = due[0]?.family_member_name ?? userName;
  return {
    payload: dosePayload(settings, name, slot, day, due),
    mail: { name, kind: 'Medication due' },
    channel: {
      kind: 'dose',
      what: CHANNEL_WHAT.medication,
      doses: {
        owner: userId,
        medication_ids: due.map((dose) => dose.medication_id),
        day,
        slot,
        group_key: groupKey,
        time_zone: settings.time_zone,
      },
    },
  };
}

function dosePayload(
  settings: ReminderSettings,
  person: string,
  slot: DoseSlot,
  day: string,
  due: TodayDose[],
): ReminderPayload {
  const tag = `dose-${day}-${slot}`;
  if (settings.hide_names) {
    return { title: tr(HIDDEN_MEDICATION_TITLE), body: '', url: '/', tag };
  }
  return {
    title: tr(DOSE_TITLES[slot], { person }),
    body: due
      .map((dose) => [dose.medication_name, dose.dosage].filter(Boolean).join(' '))
      .join(', '),
    url: '/',
    tag,
  };
}

async function remindVisits(context: JobContext, account: Account): Promise<number> {
  const { userId, now } = account;
  let sent = 0;
  for (const lead of VISIT_REMINDER_LEADS) {
    for (const visit of await dueVisits(
      context,
      userId,
      leadWindow(now, context.catchUpMs, lead),
    )) {
      const at = new Date(visit.visit_date);
      if (Number.isNaN(at.getTime())) continue;
      const dueAt = new Date(at.getTime() - lead.ms);
      const reminderKey = `visit ${visit.id} ${lead.key} ${visit.visit_date}`;
      if (!(await claim(context.db, userId, reminderKey, dueAt, now))) continue;
      await deliver(context, account, visitReminder(account, visit, lead, at));
      sent += 1;
    }
  }
  return sent;
}

/** The account's visits in a lead's window, with the name of the person each is for. */
async function dueVisits(
  { db }: JobContext,
  userId: string,
  { from, to }: { from: string; to: string },
): Promise<DueVisit[]> {
  return (await ownedRows(db, 'visits', userId, 'r')
    .leftJoin('family_members as m', (join) =>
      join.onRef('m.id', '=', 'r.family_member_id').on(ownedBy('family_members', userId, 'm')),
    )
    .select(['r.id', 'r.visit_date', 'r.doctor_name', 'r.office_name'] as never)
    .select('m.name as family_member_name' as never)
    .where('r.visit_date' as never, '>', from as never)
    .where('r.visit_date' as never, '<=', to as never)
    .execute()) as DueVisit[];
}

/** The day before or two hours before a visit: who, when, with whom, where. */
function visitReminder(
  { userName, settings }: Account,
  visit: DueVisit,
  lead: VisitLead,
  at: Date,
): Reminder {
  const url = `/visits/${visit.id}`;
  const tag = `visit-${visit.id}`;
  const time = clockTimeIn(settings.time_zone, at);
  const who = visit.family_member_name ?? userName;
  const payload: ReminderPayload = settings.hide_names
    ? { title: tr(HIDDEN_VISIT_TITLE), body: '', url, tag }
    : {
        title:
          lead.key === '24h'
            ? tr('Visit for {name} tomorrow at {time}', { name: who, time })
            : tr('Visit for {name} at {time}', { name: who, time }),
        body: [visit.doctor_name, visit.office_name].filter(Boolean).join(', '),
        url,
        tag,
      };
  return {
    payload,
    mail: { name: who, kind: 'Visit reminder' },
    channel: { kind: 'visit', what: CHANNEL_WHAT.visit },
  };
}

/**
 * A week before a dose is due and on the day it becomes overdue, at the Morning's time:
 * the person's first name, 'Vaccine due', the vaccine and dose (never a condition).
 */
async function remindVaccines(context: JobContext, account: Account): Promise<number> {
  const { userId, settings, now } = account;
  const schedule = await accountSchedule(context.db, userId);
  if (!schedule) return 0;
  let sent = 0;
  const earliest = new Date(now.getTime() - context.catchUpMs);
  for (const day of windowDays(settings.time_zone, earliest, now)) {
    const dueAt = instantOf(settings.time_zone, day, settings.time_morning);
    if (dueAt > now || dueAt <= earliest) continue;
    for (const due of await dueVaccineDoses(context, userId, schedule, day)) {
      const { member, dose } = due;
      const which = due.overdueToday ? 'overdue' : 'week';
      const reminderKey = `vaccine ${member.id} ${dose.vaccine} ${dose.dose} ${which} ${day}`;
      if (!(await claim(context.db, userId, reminderKey, dueAt, now))) continue;
      await deliver(context, account, vaccineReminder(settings, due));
      sent += 1;
    }
  }
  return sent;
}

/** The members' doses not done that are due in a week from the day, or overdue since it. */
async function dueVaccineDoses(
  { db }: JobContext,
  userId: string,
  schedule: VaccineSchedule,
  day: string,
): Promise<DueVaccineDose[]> {
  const yesterday = new Map(
    (await memberPlans(db, userId, schedule, addDays(day, -1))).map((plan) => [
      plan.member.id,
      plan.doses,
    ]),
  );
  const due: DueVaccineDose[] = [];
  for (const { member, doses } of await memberPlans(db, userId, schedule, day)) {
    for (const dose of doses) {
      if (dose.status === 'Done') continue;
      const before = yesterday
        .get(member.id)
        ?.find((d) => d.vaccine === dose.vaccine && d.dose === dose.dose);
      const weekBefore = addDays(dose.due, -VACCINE_REMINDER_DAYS_BEFORE) === day;
      const overdueToday = dose.status === 'Overdue' && before?.status !== 'Overdue';
      if (weekBefore || overdueToday) due.push({ member, dose, overdueToday });
    }
  }
  return due;
}

function vaccineReminder(
  settings: ReminderSettings,
  { member, dose, overdueToday }: DueVaccineDose,
): Reminder {
  const url = scheduleTabLink(member.id);
  const tag = `vaccine-${member.id}-${dose.vaccine}-${dose.dose}`;
  const payload: ReminderPayload = settings.hide_names
    ? { title: tr(HIDDEN_VACCINE_TITLE), body: '', url, tag }
    : {
        title: tr('Vaccine due for {name}', { name: firstName(member.name) }),
        body: overdueToday
          ? tr('{vaccine} dose {dose} is overdue', { vaccine: tr(dose.vaccine), dose: dose.dose })
          : tr('{vaccine} dose {dose} is due in a week', {
              vaccine: tr(dose.vaccine),
              dose: dose.dose,
            }),
        url,
        tag,
      };
  // Not by email: email reminders cover doses and visits (decision 29).
  return { payload, channel: { kind: 'vaccine', what: CHANNEL_WHAT.vaccine } };
}

/** A household grant's alerts of doses not taken, to the grantee's channels for doses. */
function missedDoseAlerts(context: JobContext) {
  return createMissedDoseAlerts({
    db: context.db,
    catchUpMs: context.catchUpMs,
    claim: (userId, reminderKey, dueAt, now) => claim(context.db, userId, reminderKey, dueAt, now),
    recipient: async (userId, now) => {
      const [account] = await accountsOf(context, [userId], now);
      if (!account) return undefined;
      const forDoses = account.subscriptions.filter((s) => s.medication_reminders);
      return { ...account, subscriptions: forDoses };
    },
    deliver: (account, payload, name) =>
      deliver(context, account, {
        payload,
        mail: { name, kind: 'Missed dose' },
        channel: { kind: 'missed-dose', what: CHANNEL_WHAT.missedDose },
      }),
  });
}

type MissedDoseAlerts = ReturnType<typeof missedDoseAlerts>;

// ---- Claiming and delivering ----

/** Claims a reminder for this instance; false when one has claimed it already. */
async function claim(
  db: Kysely<DB>,
  userId: string,
  reminderKey: string,
  dueAt: Date,
  now: Date,
): Promise<boolean> {
  const claimed = await db
    .insertInto('reminders_sent')
    .values(
      ownedRow(userId, {
        reminder_key: reminderKey,
        due_at: dueAt.toISOString(),
        sent_at: now.toISOString(),
      }),
    )
    .onConflict((oc) => oc.columns(['user_id', 'reminder_key']).doNothing())
    .returning('reminder_key')
    .execute();
  return claimed.length > 0;
}

/**
 * To the account's ntfy topic and webhook (the payload as the lock screen shows it), by email
 * when it asked for that (first name and kind only), and to its devices.
 */
async function deliver(
  context: JobContext,
  account: Account,
  { payload, mail, channel = { kind: 'reminder', what: CHANNEL_WHAT.reminder } }: Reminder,
): Promise<void> {
  const { userId } = account;
  await context.notifications?.enqueue(
    userId,
    { ...payload, ...channel, what: tr(channel.what) },
    account.now,
  );
  if (account.email && mail) {
    await context.outbox?.enqueue({
      to: account.userEmail,
      template: 'reminder',
      params: { name: firstName(mail.name), kind: mail.kind },
      userId,
    });
  }
  for (const subscription of account.subscriptions) {
    await pushToDevice(context, userId, subscription, payload);
  }
}

/** By web push to one device; a subscription that can never work is dropped. */
async function pushToDevice(
  { reminders, logger, pushEndpoints, vapidHeadersFor }: JobContext,
  userId: string,
  subscription: StoredSubscription,
  payload: ReminderPayload,
): Promise<void> {
  if (pushEndpointProblem(subscription.endpoint, pushEndpoints)) {
    // Saved before addresses were checked: it is not a push service's, and never will be.
    await reminders.drop(userId, subscription.id);
    logger.warn('push subscription to an address that is not a push service; dropped');
    return;
  }
  try {
    const request = webPush.generateRequestDetails(
      {
        endpoint: subscription.endpoint,
        keys: { p256dh: subscription.p256dh, auth: subscription.auth },
      },
      JSON.stringify(payload),
      {
        headers: vapidHeadersFor(subscription.endpoint),
        TTL: PUSH_TTL_SECONDS,
        urgency: 'high',
        topic: payload.tag.replace(/[^\w-]/g, '').slice(0, 32),
      },
    );
    const status = await sendToPushService(
      {
        endpoint: request.endpoint,
        method: request.method,
        headers: request.headers,
        body: request.body,
      },
      pushEndpoints,
      PUSH_TIMEOUT_MS,
    );
    if (status === 404 || status === 410) {
      // The browser unsubscribed, or the subscription expired: it will never work again.
      await reminders.drop(userId, subscription.id);
      logger.info({ status }, 'push subscription gone; dropped');
    } else if (status < 200 || status >= 300) {
      logger.warn({ status }, 'push service refused a reminder');
    }
  } catch (error) {
    logger.warn({ err: error }, 'could not send a reminder');
  }
}
