/**
 * Missed-dose alerts (CONTRACT §6 'Notifications', decision 0065): an owner's household grant
 * may 'Alert when a dose is missed' after n minutes. A dose of the shared person at a time of
 * day (not 'As Needed', nor one taken at no set time) still unmarked n minutes after its
 * reminder time (the owner's time zone and times of day) is told to the grantee: '{first
 * name} has not taken {medication} ({time of day})', or a neutral title with the grantee's
 * 'Hide names on the lock screen' on, on the grantee's own channels.
 *
 * Only an accepted grant that has not ended alerts; a removed grant is gone. Each alert is
 * claimed in `reminders_sent` under the grantee's account, like the job's reminders, so it
 * goes out once across instances; and, like them, one older than the catch-up window is
 * never sent.
 */
import type { Kysely } from 'kysely';
import { DOSE_SLOTS, type DoseSlot, type TodayDose } from '../../shared/doses';
import {
  HIDDEN_MISSED_DOSE_TITLE,
  type ReminderPayload,
  type ReminderSettings,
} from '../../shared/reminders';
import { firstName } from '../../shared/names';
import { ownAccess } from '../access/scope';
import type { DB } from '../db/schema';
import { createDoseRepository } from '../doses/dose-repository';
import { createReminderRepository, slotTime } from './reminder-repository';
import { dayIn, instantOf } from './time-zones';
import { key, tr } from '../../shared/i18n/translate';
import { inLanguage } from '../i18n/server-language';

/** An alert's title, by the dose's time of day. */
const MISSED_DOSE_TITLES: Record<DoseSlot, string> = {
  Morning: key('{name} has not taken {medication} (Morning)'),
  Noon: key('{name} has not taken {medication} (Noon)'),
  Evening: key('{name} has not taken {medication} (Evening)'),
  Night: key('{name} has not taken {medication} (Night)'),
};

/** What the job does for the pass: claim an alert, and reach an account on its channels. */
export interface MissedDoseAlertOptions<Recipient extends { settings: ReminderSettings }> {
  db: Kysely<DB>;
  catchUpMs: number;
  /** Claims a reminder key for an account; false when it was claimed already. */
  claim(userId: string, key: string, dueAt: Date, now: Date): Promise<boolean>;
  /** The account as the job sends to it (its channels for doses); undefined: none now. */
  recipient(userId: string, now: Date): Promise<Recipient | undefined>;
  /** Sends to the recipient's channels; `name` is what an email may name. */
  deliver(recipient: Recipient, payload: ReminderPayload, name: string): Promise<void>;
}

interface AlertingGrant {
  owner_id: string;
  owner_name: string;
  family_member_id: string | null;
  grantee_id: string;
  minutes: number;
}

export function missedDosePayload(
  hideNames: boolean,
  dose: Pick<TodayDose, 'medication_id' | 'medication_name'> & { slot: DoseSlot },
  person: string,
  day: string,
): ReminderPayload {
  const tag = `missed-${dose.medication_id}-${day}-${dose.slot}`;
  if (hideNames) return { title: tr(HIDDEN_MISSED_DOSE_TITLE), body: '', url: '/', tag };
  return {
    title: tr(MISSED_DOSE_TITLES[dose.slot], {
      name: firstName(person),
      medication: dose.medication_name,
    }),
    body: '',
    url: '/',
    tag,
  };
}

export function createMissedDoseAlerts<
  Recipient extends { settings: ReminderSettings; language?: string },
>(options: MissedDoseAlertOptions<Recipient>) {
  const { db, catchUpMs } = options;
  const reminders = createReminderRepository(db);
  const doses = createDoseRepository(db);

  /** The accepted, unended grants that alert, with their owners' names. */
  function alertingGrants(now: Date): Promise<AlertingGrant[]> {
    // The job's own reading across accounts, as its list of subscribed accounts is.
    return db
      .selectFrom('access_grants as g')
      .innerJoin('user as owner', 'owner.id', 'g.user_id')
      .select([
        'g.user_id as owner_id',
        'owner.name as owner_name',
        'g.family_member_id',
        'g.grantee_id',
        'g.missed_dose_alert_minutes as minutes',
      ])
      .where('g.missed_dose_alert_minutes', 'is not', null)
      .where('g.grantee_id', 'is not', null)
      .where((eb) => eb.or([eb('g.ends_at', 'is', null), eb('g.ends_at', '>', now.toISOString())]))
      .execute() as Promise<AlertingGrant[]>;
  }

  /** The times of day whose alert, `minutes` after their reminder time, falls in the window. */
  function alertsDue(settings: ReminderSettings, minutes: number, now: Date) {
    const delayMs = minutes * 60_000;
    const earliest = new Date(now.getTime() - catchUpMs);
    const days = new Set([
      dayIn(settings.time_zone, new Date(earliest.getTime() - delayMs)),
      dayIn(settings.time_zone, new Date(now.getTime() - delayMs)),
    ]);
    return [...days].flatMap((day) =>
      DOSE_SLOTS.map((slot) => ({
        day,
        slot,
        alertAt: new Date(
          instantOf(settings.time_zone, day, slotTime(settings, slot)).getTime() + delayMs,
        ),
      })).filter(({ alertAt }) => alertAt <= now && alertAt > earliest),
    );
  }

  /** One pass: every alert due in the window and not yet claimed. */
  async function run(now: Date): Promise<number> {
    const grants = await alertingGrants(now);
    let sent = 0;
    // Each owner's settings and days' doses, read once for all their grants.
    const owners = new Map<
      string,
      { settings: ReminderSettings; days: Map<string, TodayDose[]> }
    >();
    for (const grant of grants) {
      let owner = owners.get(grant.owner_id);
      if (!owner) {
        owner = { settings: (await reminders.settings(grant.owner_id)).settings, days: new Map() };
        owners.set(grant.owner_id, owner);
      }
      const due = alertsDue(owner.settings, grant.minutes, now);
      if (due.length === 0) continue;
      let recipient: Recipient | undefined | null = null;
      for (const { day, slot, alertAt } of due) {
        let today = owner.days.get(day);
        if (!today) {
          today = (await doses.today(ownAccess(grant.owner_id), day)).doses;
          owner.days.set(day, today);
        }
        const unmarked = today.filter(
          (dose) =>
            dose.slot === slot && !dose.mark && dose.family_member_id === grant.family_member_id,
        );
        for (const dose of unmarked) {
          if (recipient === null) recipient = await options.recipient(grant.grantee_id, now);
          if (!recipient) break;
          const key = `missed-dose ${dose.medication_id} ${day} ${slot}`;
          if (!(await options.claim(grant.grantee_id, key, alertAt, now))) continue;
          const person = dose.family_member_name ?? grant.owner_name;
          const to = recipient;
          // In the grantee's language: the alert is theirs.
          await inLanguage(to.language, () =>
            options.deliver(
              to,
              missedDosePayload(to.settings.hide_names, { ...dose, slot }, person, day),
              person,
            ),
          );
          sent += 1;
        }
      }
    }
    return sent;
  }

  return { run };
}
