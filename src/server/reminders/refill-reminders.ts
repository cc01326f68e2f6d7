/**
 * 'Refill reminders' (CONTRACT §6 'Medication supply'), a part of the reminder job's pass for
 * one account: at the Morning's time, for each of the account's own medications keeping a
 * supply, a reminder when it runs out within the account's days ahead (7 unless told), once
 * per supply: until 'Refilled' or an edit changes it (a forecast that moves a day because a
 * dose went unmarked is the same supply, not news), or, never refilled, again once the day it
 * ran out is three days past; and when the prescription ends within them, once per end date. Either says 'Ask the doctor for a new
 * prescription' when no refill is left or the prescription ends before the pills do.
 */
import { addDays } from '../../shared/date-values';
import { formatDate } from '../../shared/dates';
import {
  NEW_PRESCRIPTION_MESSAGE,
  needsNewPrescription,
  runsOut,
} from '../../shared/medication-supply';
import { firstName } from '../../shared/names';
import {
  HIDDEN_REFILL_TITLE,
  type ReminderPayload,
  type ReminderSettings,
} from '../../shared/reminders';
import type { DoseRepository } from '../doses/dose-repository';
import { dayIn, instantOf } from './time-zones';
import { tr } from '../../shared/i18n/translate';

export interface RefillPass {
  userId: string;
  userName: string;
  settings: ReminderSettings;
  now: Date;
  /** How late a reminder may still be sent. */
  catchUpMs: number;
  doses: Pick<DoseRepository, 'supplies'>;
  /**
   * Claims a reminder once across servers, the claim kept a while past `about` (the day it
   * is about); false when it was claimed already.
   */
  claim(key: string, about: Date): Promise<boolean>;
  /** To the account's devices (and by email, naming only the person and 'Refill due'). */
  deliver(payload: ReminderPayload, person: string): Promise<void>;
}

const shortDate = (day: string) => formatDate(day, 'MMM d');

/** The account's refill reminders due in the window; answers how many were sent. */
export async function remindRefills(pass: RefillPass): Promise<number> {
  const { settings, now } = pass;
  if (!settings.refill_reminders) return 0;
  const earliest = new Date(now.getTime() - pass.catchUpMs);
  const morningOf = (day: string) => instantOf(settings.time_zone, day, settings.time_morning);
  let sent = 0;
  for (const day of new Set([
    dayIn(settings.time_zone, earliest),
    dayIn(settings.time_zone, now),
  ])) {
    const dueAt = morningOf(day);
    if (dueAt > now || dueAt <= earliest) continue;
    const horizon = addDays(day, settings.refill_days);
    for (const med of await pass.doses.supplies(pass.userId, day)) {
      const outOn = runsOut(med, day, med.marked);
      const newPrescription = needsNewPrescription(med, outOn, day);
      const person = firstName(med.family_member_name ?? pass.userName);
      const url = `/medications/${med.id}`;
      const tag = `refill-${med.id}`;
      const ends = med.prescription_ends;
      const endsSoon =
        ends !== null && ends >= day && ends <= horizon && (outOn === null || ends < outOn);
      if (outOn !== null && outOn <= horizon) {
        if (!(await pass.claim(`refill ${med.id} ${med.updated_at}`, morningOf(outOn)))) continue;
        // The prescription's end is said here: no second reminder for it.
        if (endsSoon) await pass.claim(`prescription ${med.id} ${ends}`, morningOf(ends));
        const left = med.refills_left;
        await pass.deliver(
          settings.hide_names
            ? { title: tr(HIDDEN_REFILL_TITLE), body: '', url, tag }
            : {
                title: tr('{medication} for {person} runs out {date}', {
                  medication: med.medication_name,
                  person,
                  date: shortDate(outOn),
                }),
                body: newPrescription
                  ? tr(NEW_PRESCRIPTION_MESSAGE)
                  : left === null
                    ? tr('Time to refill')
                    : tr('Time to refill ({count} refills left)', { count: left }),
                url,
                tag,
              },
          person,
        );
        sent += 1;
      } else if (endsSoon) {
        if (!(await pass.claim(`prescription ${med.id} ${ends}`, morningOf(ends!)))) continue;
        await pass.deliver(
          settings.hide_names
            ? { title: tr(HIDDEN_REFILL_TITLE), body: '', url, tag }
            : {
                title: tr('The prescription for {medication} ({person}) ends {date}', {
                  medication: med.medication_name,
                  person,
                  date: shortDate(ends),
                }),
                body: tr(NEW_PRESCRIPTION_MESSAGE),
                url,
                tag,
              },
          person,
        );
        sent += 1;
      }
    }
  }
  return sent;
}
