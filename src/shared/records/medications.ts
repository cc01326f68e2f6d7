/** Medications: what is taken, when in the day, and from when to when (SPEC.md §2). */
import { amount, choice, date, familyMember, flag, text, textarea } from './fields';
import { recordCatalogue } from './catalogue';
import { defineRecord, objectSchema, standardMessages } from './definition';
import { TIMES_OF_DAY } from './medication-times';
import { key, tr } from '../i18n/translate';
import { MAX_DOSE_AMOUNT, SUPPLY_MAX } from '../medication-supply';

export { ANY_TIME_LABEL, TIMES_OF_DAY } from './medication-times';

export const MEDICATION_FREQUENCIES = ['Daily', 'Twice Daily', 'Weekly', 'As Needed'] as const;

const fields = {
  medication_name: text('Medication Name', { required: true }),
  dosage: text('Dosage'),
  frequency: choice('Frequency', MEDICATION_FREQUENCIES),
  time_morning: flag('Morning'),
  time_noon: flag('Noon'),
  time_evening: flag('Evening'),
  time_night: flag('Night'),
  no_set_time: flag('No set time'),
  start_date: date('Start Date'),
  end_date: date('End Date'),
  condition: text('Condition'),
  prescribed_doctor: text('Prescribed By'),
  // Supply (CONTRACT §6 'Medication supply'): what is left, what a dose takes of it, and
  // what the prescription still allows (src/shared/medication-supply.ts).
  quantity_on_hand: amount('Quantity On Hand', { min: 0, max: SUPPLY_MAX }),
  dose_amount: amount('Dose Amount', { min: 0.01, max: MAX_DOSE_AMOUNT, initial: '1' }),
  refills_left: amount('Refills Left', { min: 0, max: 99, whole: true }),
  prescription_ends: date('Prescription Ends'),
  notes: textarea('Notes'),
  family_member_id: familyMember(),
};

export const END_BEFORE_START_MESSAGE = key('End Date must be on or after the Start Date');

export const NO_SET_TIME_LABEL = key('No set time');

type TimesOfDay = Record<(typeof TIMES_OF_DAY)[number]['field'], boolean>;

const timesTicked = (values: TimesOfDay) =>
  TIMES_OF_DAY.filter(({ field }) => values[field]).length;

/**
 * What is wrong with a frequency's times of day, or null: 'Twice Daily' is taken at two
 * times of day, 'Daily' and 'Weekly' at one or more, each unless the user says there is no
 * set time; 'As Needed' at none. A medication without a frequency may have any.
 */
export function frequencyTimesIssue(
  values: TimesOfDay & { frequency: string | null; no_set_time: boolean },
): string | null {
  const { frequency } = values;
  const ticked = timesTicked(values);
  const untimed = ticked === 0 && values.no_set_time;
  switch (frequency) {
    case 'As Needed':
      return ticked === 0 ? null : tr("Frequency 'As Needed' takes no time of day");
    case 'Twice Daily':
      return ticked === 2 || untimed
        ? null
        : tr("Frequency 'Twice Daily' needs two times of day, or tick '{noSetTime}'", {
            noSetTime: tr(NO_SET_TIME_LABEL),
          });
    case 'Daily':
    case 'Weekly':
      return ticked > 0 || untimed
        ? null
        : tr("Frequency '{frequency}' needs a time of day, or tick '{noSetTime}'", {
            frequency: tr(frequency),
            noSetTime: tr(NO_SET_TIME_LABEL),
          });
    default:
      return null;
  }
}

/**
 * A medication kept before the rule above (or imported from a file written before it): one
 * taken on a schedule with no time of day ticked is read as taken at no set time.
 */
export function withUntimedAsNoSetTime<V extends Record<string, unknown>>(values: V): V {
  const scheduled = typeof values.frequency === 'string' && values.frequency !== 'As Needed';
  const untimed = TIMES_OF_DAY.every(({ field }) => !values[field]);
  return scheduled && untimed ? { ...values, no_set_time: true } : values;
}

export const medicationDefinition = defineRecord({
  ...recordCatalogue.medication,
  titleField: 'medication_name',
  pairs: [
    ['dosage', 'frequency'],
    ['start_date', 'end_date'],
    ['quantity_on_hand', 'dose_amount'],
    ['refills_left', 'prescription_ends'],
  ],
  // The pack 'Refilled' last added, offered again next time.
  keptColumns: ['pack_size'],
  fields,
  schema: objectSchema(fields)
    .refine(
      (values) =>
        values.start_date === null ||
        values.end_date === null ||
        values.end_date >= values.start_date,
      { error: () => tr(END_BEFORE_START_MESSAGE), path: ['end_date'] },
    )
    .superRefine((values, context) => {
      const issue = frequencyTimesIssue(values);
      if (issue) context.addIssue({ code: 'custom', message: issue, path: ['frequency'] });
    })
    // 'No set time' says that no time is ticked: with a time ticked it does not hold.
    .transform((values) =>
      values.no_set_time && timesTicked(values) > 0 ? { ...values, no_set_time: false } : values,
    ),
  memberLinked: true,
  order: [{ column: 'start_date', direction: 'desc', nulls: 'last' }],
  views: {
    current: {
      column: 'end_date',
      comparison: '>=',
      against: 'today',
      includesEmpty: true,
      order: [{ column: 'start_date', direction: 'desc', nulls: 'last' }],
    },
    past: {
      column: 'end_date',
      comparison: '<',
      against: 'today',
      includesEmpty: false,
      order: [{ column: 'end_date', direction: 'desc' }],
    },
  },
  timeline: { dateField: 'start_date' },
  afterEdit: 'detail',
  messages: standardMessages('Medication', 'medications', {
    created: 'created',
    deletedDescription: 'deleted',
  }),
});

type TimedMedication = TimesOfDay;

/**
 * Current medications by time of day, in the day's order; one taken morning and night is
 * in both groups. Those with no time of day are gathered last, so none is ever hidden.
 */
export function groupByTimeOfDay<M extends TimedMedication>(medications: readonly M[]) {
  const groups = TIMES_OF_DAY.map(({ field, label }) => ({
    label,
    medications: medications.filter((medication) => medication[field]),
  }));
  const untimed = medications.filter((medication) =>
    TIMES_OF_DAY.every(({ field }) => !medication[field]),
  );
  return [...groups, { label: NO_SET_TIME_LABEL, medications: untimed }].filter(
    (group) => group.medications.length > 0,
  );
}

export const OTHER_CONDITION_LABEL = key('Other');

/** Past medications by the condition they treated, 'Other' for none, in order of appearance. */
export function groupByCondition<M extends { condition: string | null }>(
  medications: readonly M[],
) {
  const groups = new Map<string, M[]>();
  for (const medication of medications) {
    const label = medication.condition?.trim() || OTHER_CONDITION_LABEL;
    groups.set(label, [...(groups.get(label) ?? []), medication]);
  }
  return [...groups.entries()].map(([label, items]) => ({ label, medications: items }));
}
