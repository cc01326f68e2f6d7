/**
 * An account's reminder settings and its devices' push subscriptions, over the rows the
 * access module lets a request (or the reminder job, for one user at a time) touch.
 */
import type { Kysely } from 'kysely';
import { DOSE_SLOTS, type DoseSlot } from '../../shared/doses';
import {
  DEFAULT_SLOT_TIMES,
  type PushSubscriptionInput,
  type ReminderSettings,
  type RemindersState,
  type RenewedSubscription,
} from '../../shared/reminders';
import { deleteOwned, ownedRow, ownedRows, updateOwned } from '../access/scope';
import type { DB } from '../db/schema';
import { newId, nowTimestamp } from '../ids';
import { DEFAULT_REFILL_DAYS } from '../../shared/medication-supply';

export const DEFAULT_SETTINGS: ReminderSettings = {
  time_zone: 'UTC',
  time_morning: DEFAULT_SLOT_TIMES.Morning,
  time_noon: DEFAULT_SLOT_TIMES.Noon,
  time_evening: DEFAULT_SLOT_TIMES.Evening,
  time_night: DEFAULT_SLOT_TIMES.Night,
  hide_names: false,
  email_reminders: false,
  refill_reminders: true,
  refill_days: DEFAULT_REFILL_DAYS,
};

/** A time of day's time in the settings. */
export function slotTime(settings: ReminderSettings, slot: DoseSlot): string {
  const field = `time_${slot.toLowerCase()}` as 'time_morning';
  return settings[field];
}
export const ALL_SLOTS: readonly DoseSlot[] = DOSE_SLOTS;

export interface StoredSubscription {
  id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  medication_reminders: boolean;
  visit_reminders: boolean;
  vaccine_reminders: boolean;
}

export class SubscriptionTakenError extends Error {}

const SETTINGS_COLUMNS = [
  'time_zone',
  'time_morning',
  'time_noon',
  'time_evening',
  'time_night',
  'hide_names',
  'email_reminders',
  'refill_reminders',
  'refill_days',
] as const;
type SettingsRow = Omit<ReminderSettings, 'hide_names' | 'email_reminders' | 'refill_reminders'> & {
  hide_names: number;
  email_reminders: number;
  refill_reminders: number;
};

const SUBSCRIPTION_COLUMNS = [
  'id',
  'endpoint',
  'p256dh',
  'auth',
  'medication_reminders',
  'visit_reminders',
  'vaccine_reminders',
] as const;
type SubscriptionRow = Omit<
  StoredSubscription,
  'medication_reminders' | 'visit_reminders' | 'vaccine_reminders'
> & { medication_reminders: number; visit_reminders: number; vaccine_reminders: number };

const toSettings = (row: SettingsRow): ReminderSettings => ({
  ...row,
  hide_names: Boolean(row.hide_names),
  email_reminders: Boolean(row.email_reminders),
  refill_reminders: Boolean(row.refill_reminders),
});

const toSubscription = (row: SubscriptionRow): StoredSubscription => ({
  ...row,
  medication_reminders: Boolean(row.medication_reminders),
  visit_reminders: Boolean(row.visit_reminders),
  vaccine_reminders: Boolean(row.vaccine_reminders),
});

/** How many accounts one of the reminder job's reads takes at once (a bound on its parameters). */
const ACCOUNTS_PER_READ = 500;

function inChunks<T>(items: readonly T[]): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += ACCOUNTS_PER_READ) {
    chunks.push(items.slice(start, start + ACCOUNTS_PER_READ));
  }
  return chunks;
}

/** What the reminder job needs of an account to reach it. */
export interface ReminderAccount {
  userId: string;
  userName: string;
  userEmail: string;
  settings: ReminderSettings;
  subscriptions: StoredSubscription[];
}

async function settingsOf(
  db: Kysely<DB>,
  userId: string,
): Promise<{ settings: ReminderSettings; saved: boolean }> {
  const row = await ownedRows(db, 'reminder_settings', userId)
    .select(SETTINGS_COLUMNS)
    .executeTakeFirst();
  if (!row) return { settings: DEFAULT_SETTINGS, saved: false };
  return { settings: toSettings(row), saved: true };
}

async function subscriptionsOf(db: Kysely<DB>, userId: string): Promise<StoredSubscription[]> {
  const rows = await ownedRows(db, 'push_subscriptions', userId)
    .select(SUBSCRIPTION_COLUMNS)
    .orderBy('created_at')
    .execute();
  return rows.map(toSubscription);
}

/**
 * The reminder job's read of many accounts at once (its own, across accounts): each
 * one's name, email, settings and devices, in three queries per ACCOUNTS_PER_READ
 * accounts rather than three an account. An id with no account is left out.
 */
async function readAccounts(
  db: Kysely<DB>,
  userIds: readonly string[],
): Promise<Map<string, ReminderAccount>> {
  const accounts = new Map<string, ReminderAccount>();
  for (const ids of inChunks([...new Set(userIds)])) {
    const [users, saved, devices] = await Promise.all([
      db.selectFrom('user').select(['id', 'name', 'email']).where('id', 'in', ids).execute(),
      db
        .selectFrom('reminder_settings')
        .select('user_id')
        .select(SETTINGS_COLUMNS)
        .where('user_id', 'in', ids)
        .execute(),
      db
        .selectFrom('push_subscriptions')
        .select('user_id')
        .select(SUBSCRIPTION_COLUMNS)
        .where('user_id', 'in', ids)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),
    ]);
    const settingsOfUser = new Map(saved.map((row) => [row.user_id, toSettings(row)]));
    for (const user of users) {
      accounts.set(user.id, {
        userId: user.id,
        userName: user.name,
        userEmail: user.email,
        settings: settingsOfUser.get(user.id) ?? DEFAULT_SETTINGS,
        subscriptions: [],
      });
    }
    for (const { user_id: userId, ...device } of devices) {
      accounts.get(userId)?.subscriptions.push(toSubscription(device));
    }
  }
  return accounts;
}

/** The reminders page's state: the settings, whether saved, and this account's devices. */
async function remindersState(
  db: Kysely<DB>,
  userId: string,
  publicKey: string,
): Promise<RemindersState> {
  const { settings: current, saved } = await settingsOf(db, userId);
  return {
    settings: current,
    saved,
    public_key: publicKey,
    subscriptions: (await subscriptionsOf(db, userId)).map((s) => ({
      endpoint: s.endpoint,
      medication_reminders: s.medication_reminders,
      visit_reminders: s.visit_reminders,
      vaccine_reminders: s.vaccine_reminders,
    })),
  };
}

async function saveSettings(db: Kysely<DB>, userId: string, input: ReminderSettings) {
  const values = {
    ...input,
    hide_names: input.hide_names ? 1 : 0,
    email_reminders: input.email_reminders ? 1 : 0,
    refill_reminders: input.refill_reminders ? 1 : 0,
    updated_at: nowTimestamp(),
  };
  const updated = await updateOwned(db, 'reminder_settings', userId).set(values).executeTakeFirst();
  if (Number(updated.numUpdatedRows) > 0) return;
  await db
    .insertInto('reminder_settings')
    .values(ownedRow(userId, values))
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
}

/**
 * This device's subscription and what it asks for; with no kind of reminder, the
 * subscription is forgotten. Throws SubscriptionTakenError when another account holds
 * the same endpoint (the same browser signed in to two accounts).
 */
async function subscribe(
  db: Kysely<DB>,
  userId: string,
  input: PushSubscriptionInput,
): Promise<'added' | 'changed' | 'removed' | 'none'> {
  if (!input.medication_reminders && !input.visit_reminders && !input.vaccine_reminders) {
    const deleted = await deleteOwned(db, 'push_subscriptions', userId)
      .where('endpoint', '=', input.endpoint)
      .executeTakeFirst();
    return Number(deleted.numDeletedRows) > 0 ? 'removed' : 'none';
  }
  const values = {
    p256dh: input.keys.p256dh,
    auth: input.keys.auth,
    medication_reminders: input.medication_reminders ? 1 : 0,
    visit_reminders: input.visit_reminders ? 1 : 0,
    vaccine_reminders: input.vaccine_reminders ? 1 : 0,
  };
  const updated = await updateOwned(db, 'push_subscriptions', userId)
    .set(values)
    .where('endpoint', '=', input.endpoint)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) > 0) return 'changed';
  const inserted = await db
    .insertInto('push_subscriptions')
    .values(
      ownedRow(userId, {
        id: newId(),
        endpoint: input.endpoint,
        ...values,
        created_at: nowTimestamp(),
      }),
    )
    .onConflict((oc) => oc.column('endpoint').doNothing())
    .returning('id')
    .execute();
  if (inserted.length === 0) throw new SubscriptionTakenError();
  return 'added';
}

/** The browser replaced a subscription: the device keeps its choices. */
async function renew(db: Kysely<DB>, userId: string, input: RenewedSubscription) {
  const updated = await updateOwned(db, 'push_subscriptions', userId)
    .set({ endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth })
    .where('endpoint', '=', input.old_endpoint)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

async function unsubscribe(db: Kysely<DB>, userId: string, endpoint: string) {
  const deleted = await deleteOwned(db, 'push_subscriptions', userId)
    .where('endpoint', '=', endpoint)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

/** A subscription the push service no longer knows (404 or 410). */
async function drop(db: Kysely<DB>, userId: string, id: string) {
  await deleteOwned(db, 'push_subscriptions', userId).where('id', '=', id).execute();
}

export function createReminderRepository(db: Kysely<DB>) {
  return {
    settings: (userId: string) => settingsOf(db, userId),
    subscriptions: (userId: string) => subscriptionsOf(db, userId),
    accounts: (userIds: readonly string[]) => readAccounts(db, userIds),
    state: (userId: string, publicKey: string) => remindersState(db, userId, publicKey),
    saveSettings: (userId: string, input: ReminderSettings): Promise<void> =>
      saveSettings(db, userId, input),
    subscribe: (userId: string, input: PushSubscriptionInput) => subscribe(db, userId, input),
    renew: (userId: string, input: RenewedSubscription): Promise<boolean> =>
      renew(db, userId, input),
    unsubscribe: (userId: string, endpoint: string): Promise<boolean> =>
      unsubscribe(db, userId, endpoint),
    drop: (userId: string, id: string): Promise<void> => drop(db, userId, id),
  };
}

export type ReminderRepository = ReturnType<typeof createReminderRepository>;
