/**
 * Today's checklist, the dose log and adherence, over the rows the access module lets a
 * request touch: the user's own medications and those of the persons shared with them (an
 * Editor marks their doses; a Viewer sees them). A dose mark belongs to the medication's
 * owner and names who marked it. Which doses are due is `dueSlots` (src/shared/doses.ts),
 * the same rule the web app shows.
 */
import type { Kysely } from 'kysely';
import {
  ADHERENCE_DAYS,
  AS_NEEDED,
  addDays,
  adherenceOf,
  dueSlots,
  type Adherence,
  type DoseMark,
  type Schedule,
  type ScheduledSlot,
  type TodayDoses,
} from '../../shared/doses';
import type { DoseMarkInput, RefillInput } from '../../shared/dose-requests';
import { supplyForecast, type Supply, type SupplyForecast } from '../../shared/medication-supply';
import {
  inScope,
  membersOfScope,
  ownAccess,
  rowsInScope,
  scopeOf,
  scopeValues,
  shareOfRow,
  deleteOwned,
  ownedRow,
  ownedRows,
  updateOwned,
  type Access,
  type Scope,
  type Share,
} from '../access/scope';
import { viewOnly } from '../access/persons';
import type { DB } from '../db/schema';
import { withPersonNames } from '../persons/person-columns';
import { badRequest } from '../http/errors';
import { isId, newId, nowTimestamp } from '../ids';
import { currentLanguage, key, tr } from '../../shared/i18n/translate';
import { formatDate, LONG_DATE_FORMAT } from '../../shared/dates';

const MEDICATION_COLUMNS = [
  // Named, so that a compound query's ORDER BY can name it (SQLite matches its terms by alias).
  'r.id as id',
  'r.medication_name',
  'r.dosage',
  'r.frequency',
  'r.start_date',
  'r.end_date',
  'r.time_morning',
  'r.time_noon',
  'r.time_evening',
  'r.time_night',
  'r.user_id',
  'r.family_member_id',
  'r.created_at',
  'r.quantity_on_hand',
  'r.dose_amount',
  'r.refills_left',
  'r.prescription_ends',
  'r.pack_size',
  'r.updated_at',
] as const;

interface MedicationRow extends Schedule, Supply {
  pack_size: number | null;
  id: string;
  user_id: string;
  medication_name: string;
  dosage: string | null;
  family_member_id: string | null;
  family_member_name: string | null;
  family_member_color: string | null;
  created_at: string;
  updated_at: string;
}

const MARK_COLUMNS = ['id', 'medication_id', 'day', 'slot', 'status', 'marked_at'] as const;

/** The slots of a day already marked, taken or skipped: none is to be taken again. */
export const markedOn = (marks: readonly Pick<DoseMark, 'day' | 'slot'>[], day: string) =>
  new Set(
    marks.filter((mark) => mark.day === day && mark.slot !== AS_NEEDED).map((m) => m.slot),
  ) as Set<ScheduledSlot>;

/** Yes/no columns come back as 0/1 from both engines. */
function medicationOf(row: Record<string, unknown>): MedicationRow {
  return {
    ...(row as unknown as MedicationRow),
    time_morning: Boolean(row.time_morning),
    time_noon: Boolean(row.time_noon),
    time_evening: Boolean(row.time_evening),
    time_night: Boolean(row.time_night),
    family_member_name: (row.family_member_name as string | null) ?? null,
    family_member_color: (row.family_member_color as string | null) ?? null,
  };
}

/**
 * The medications a scope reads, current on `day`, each with its person's name and colour.
 * Those with no end and those ending on or after `day` are read as two halves, each a range
 * of the (user_id, end_date) index: as one condition ('no end, or not yet ended') SQLite read
 * every medication the account ever had through the index and kept the current ones (3,000
 * rows for the benchmark's heavy user, 592 of them current: 2.6–3.0 ms against 1.4–2.1).
 */
async function currentMedications(
  db: Kysely<DB>,
  scope: Scope,
  day: string,
): Promise<MedicationRow[]> {
  const values = scopeValues(scope);
  const started = () =>
    withPersonNames(rowsInScope(db, 'medications', scope, values, 'r'), scope, values, 'r')
      .select(MEDICATION_COLUMNS as never)
      .where((eb) => eb.or([eb('r.start_date', 'is', null), eb('r.start_date', '<=', day)]));
  const rows = await started()
    .where('r.end_date', 'is', null)
    .unionAll(started().where('r.end_date', '>=', day))
    .orderBy('medication_name' as never)
    .orderBy('id' as never)
    .execute();
  return (rows as Record<string, unknown>[]).map(medicationOf);
}

/** A medication the user reads (their own, or a shared person's), by id. */
async function medication(
  db: Kysely<DB>,
  access: Access,
  id: string,
): Promise<MedicationRow | undefined> {
  if (!isId(id)) return undefined;
  const scope = scopeOf(access, { memberLinked: true });
  const row = await rowsInScope(db, 'medications', scope, scopeValues(scope), 'r')
    .select(MEDICATION_COLUMNS as never)
    .where('r.id', '=', id)
    .executeTakeFirst();
  return row ? medicationOf(row as Record<string, unknown>) : undefined;
}

/** The dose marks of a scope's medications, as `d` (their medication as `r`). */
function marksInScope(db: Kysely<DB>, scope: Scope) {
  const values = scopeValues(scope);
  return db
    .selectFrom('dose_log as d')
    .innerJoin('medications as r', (join) =>
      join.onRef('r.id', '=', 'd.medication_id').on(inScope('medications', scope, values, 'r')),
    )
    .where(membersOfScope(scope, values, 'd'));
}

/** A medication whose doses the user may mark: their own, or a person's shared as Editor. */
async function markable(
  db: Kysely<DB>,
  access: Access,
  id: string,
): Promise<MedicationRow | undefined> {
  const med = await medication(db, access, id);
  if (med && med.user_id !== access.userId && shareOfRow(access, med)?.role !== 'editor') {
    throw viewOnly();
  }
  return med;
}

/**
 * Takes a dose from the medication's supply, when one is kept, in the mark's transaction:
 * answers what it took (less than a dose when less was left; never below empty), or null.
 */
async function takeFromSupply(trx: Kysely<DB>, med: MedicationRow): Promise<number | null> {
  const amount = med.dose_amount && med.dose_amount > 0 ? med.dose_amount : 1;
  const whole = await updateOwned(trx, 'medications', med.user_id)
    .set((eb) => ({ quantity_on_hand: eb('quantity_on_hand', '-', amount) }))
    .where('id', '=', med.id)
    .where('quantity_on_hand', '>=', amount)
    .executeTakeFirst();
  if (Number(whole.numUpdatedRows) > 0) return amount;
  // Less than a dose left: what is left is what was taken.
  const left = await ownedRows(trx, 'medications', med.user_id)
    .select('quantity_on_hand')
    .where('id', '=', med.id)
    .executeTakeFirst();
  const rest = left?.quantity_on_hand as number | null | undefined;
  if (rest === null || rest === undefined || rest <= 0) return rest === 0 ? 0 : null;
  await updateOwned(trx, 'medications', med.user_id)
    .set({ quantity_on_hand: 0 })
    .where('id', '=', med.id)
    .where('quantity_on_hand', '=', rest)
    .execute();
  return rest;
}

/** Gives back to the supply what a mark took (nothing when none is kept any more). */
async function restock(trx: Kysely<DB>, med: MedicationRow, used: number | null) {
  if (!used) return;
  await updateOwned(trx, 'medications', med.user_id)
    .set((eb) => ({ quantity_on_hand: eb('quantity_on_hand', '+', used) }))
    .where('id', '=', med.id)
    .where('quantity_on_hand', 'is not', null)
    .execute();
}

/** Today's checklist of a scope: each current medication's due doses, or its 'As Needed' log. */
async function todaysDoses(db: Kysely<DB>, access: Access, day: string): Promise<TodayDoses> {
  const scope = scopeOf(access, { memberLinked: true });
  const medications = await currentMedications(db, scope, day);
  // The day's marks of the scope's medications (a shared person's marks, not the rest
  // of their owner's).
  const marks = (await marksInScope(db, scope)
    .select(MARK_COLUMNS.map((column) => `d.${column}` as const))
    .where('d.day', '=', day)
    .orderBy('d.marked_at')
    .execute()) as DoseMark[];
  return checklistOf(day, medications, marks);
}

/** The checklist of a day from its current medications and the marks made on it. */
function checklistOf(day: string, medications: MedicationRow[], marks: DoseMark[]): TodayDoses {
  const byDose = new Map(
    marks.filter((m) => m.slot !== AS_NEEDED).map((m) => [`${m.medication_id} ${m.slot}`, m]),
  );
  const doses: TodayDoses['doses'] = [];
  const asNeeded: TodayDoses['as_needed'] = [];
  for (const med of medications) {
    const who = {
      medication_id: med.id,
      user_id: med.user_id,
      medication_name: med.medication_name,
      dosage: med.dosage,
      family_member_id: med.family_member_id,
      family_member_name: med.family_member_name,
      family_member_color: med.family_member_color,
    };
    if (med.frequency === AS_NEEDED) {
      asNeeded.push({
        ...who,
        taken: marks.filter((m) => m.medication_id === med.id && m.slot === AS_NEEDED),
      });
      continue;
    }
    for (const slot of dueSlots(med, day)) {
      doses.push({
        ...who,
        slot,
        mark: byDose.get(`${med.id} ${slot}`) ?? null,
      });
    }
  }
  return { day, doses, as_needed: asNeeded };
}

/** A mark the medication allows: 'As Needed' only taken and only for such a one, else a due slot. */
function checkMarkFits(med: MedicationRow, input: DoseMarkInput): void {
  if (input.slot === AS_NEEDED) {
    if (med.frequency !== AS_NEEDED) {
      throw badRequest(key('Slot: only an As Needed medication is logged as needed'), 'slot');
    }
    if (input.status !== 'taken') {
      throw badRequest(key('Status: an As Needed dose is logged when taken'), 'status');
    }
  } else if (!dueSlots(med, input.day).includes(input.slot)) {
    throw badRequest(
      tr('Slot: {medication} is not due in the {slot} on {day}', {
        medication: med.medication_name,
        slot: tr(input.slot),
        day: currentLanguage() === 'en' ? input.day : formatDate(input.day, LONG_DATE_FORMAT),
      }),
      'slot',
    );
  }
}

/**
 * Marks a dose taken or skipped (again: the new mark replaces the old), or logs an 'As
 * Needed' dose. Undefined when the medication is not one of the user's.
 */
async function markDose(
  db: Kysely<DB>,
  access: Access,
  input: DoseMarkInput,
): Promise<DoseMark | undefined> {
  const med = await markable(db, access, input.medication_id);
  if (!med) return undefined;
  // The mark is the medication's owner's, whoever made it.
  const owner = med.user_id;
  checkMarkFits(med, input);
  const row = ownedRow(owner, {
    id: newId(),
    ...input,
    marked_at: nowTimestamp(),
    marked_by: access.userId,
    supply_used: null as number | null,
  });
  // In the caller's transaction when it has one (a reminder's button: its token is used
  // up with the mark, or not at all).
  const inTransaction = <T>(work: (trx: Kysely<DB>) => Promise<T>) =>
    db.isTransaction ? work(db) : db.transaction().execute(work);
  await inTransaction(async (trx) => {
    if (input.slot !== AS_NEEDED) {
      // A mark replaced gives back what it took, before the new one takes.
      const replaced = await deleteOwned(trx, 'dose_log', owner)
        .where('medication_id', '=', input.medication_id)
        .where('day', '=', input.day)
        .where('slot', '=', input.slot)
        .returning('supply_used')
        .execute();
      for (const { supply_used: used } of replaced) await restock(trx, med, used);
    }
    if (input.status === 'taken') row.supply_used = await takeFromSupply(trx, med);
    await trx.insertInto('dose_log').values(row).execute();
  });
  const { user_id: _owner, marked_by: _by, supply_used: _used, ...mark } = row;
  return mark as DoseMark;
}

/** The shared person a medication is about, if it is someone else's the user reads. */
async function shareOfMedication(
  db: Kysely<DB>,
  access: Access,
  medicationId: string,
): Promise<Share | undefined> {
  if (access.shares.length === 0) return undefined;
  const med = await medication(db, access, medicationId);
  return med && med.user_id !== access.userId ? shareOfRow(access, med) : undefined;
}

/**
 * 'Undo': the mark is gone, and the dose is due (or missed) again. Answers the mark's
 * medication, or undefined when the user has no such mark.
 */
async function undoMark(db: Kysely<DB>, access: Access, id: string): Promise<string | undefined> {
  if (!isId(id)) return undefined;
  const scope = scopeOf(access, { memberLinked: true });
  const found = await marksInScope(db, scope)
    .select(['d.user_id', 'd.medication_id'])
    .where('d.id', '=', id)
    .executeTakeFirst();
  if (!found) return undefined;
  const med = await markable(db, access, found.medication_id);
  if (!med) return undefined;
  return db.transaction().execute(async (trx) => {
    const removed = await deleteOwned(trx, 'dose_log', med.user_id)
      .where('id', '=', id)
      .returning('supply_used')
      .execute();
    for (const { supply_used: used } of removed) await restock(trx, med, used);
    return removed.length > 0 ? med.id : undefined;
  });
}

/**
 * 'Refilled': a pack added to what is on hand, one refill used (when any are left), and
 * the pack's size kept to be offered next time. Undefined when not the user's.
 */
async function refill(
  db: Kysely<DB>,
  access: Access,
  medicationId: string,
  input: RefillInput,
): Promise<MedicationRow | undefined> {
  const med = await markable(db, access, medicationId);
  if (!med) return undefined;
  await updateOwned(db, 'medications', med.user_id)
    .set((eb) => ({
      quantity_on_hand: eb(eb.fn.coalesce('quantity_on_hand', eb.lit(0)), '+', input.pack_size),
      refills_left: eb
        .case()
        .when('refills_left', '>', 0)
        .then(eb('refills_left', '-', 1))
        .else(eb.ref('refills_left'))
        .end(),
      pack_size: input.pack_size,
      updated_at: nowTimestamp(),
    }))
    .where('id', '=', med.id)
    .execute();
  return medication(db, access, med.id);
}

/**
 * The account's own medications current on `day` that keep a supply or a prescription's
 * end, each with the slots of that day already marked (for the refill reminders).
 */
async function supplies(
  db: Kysely<DB>,
  userId: string,
  day: string,
): Promise<(MedicationRow & { marked: Set<ScheduledSlot> })[]> {
  const scope = scopeOf(ownAccess(userId), { memberLinked: true });
  const medications = (await currentMedications(db, scope, day)).filter(
    (med) => med.quantity_on_hand !== null || med.prescription_ends !== null,
  );
  if (medications.length === 0) return [];
  const marks = (await ownedRows(db, 'dose_log', userId)
    .select(['medication_id', 'day', 'slot'])
    .where('day', '=', day)
    .where(
      'medication_id',
      'in',
      medications.map((med) => med.id),
    )
    .execute()) as DoseMark[];
  return medications.map((med) => ({
    ...med,
    marked: markedOn(
      marks.filter((mark) => mark.medication_id === med.id),
      day,
    ),
  }));
}

/** The last 30 days of a medication, and when its supply runs out. */
async function adherence(
  db: Kysely<DB>,
  access: Access,
  medicationId: string,
  today: string,
): Promise<(Adherence & { supply: SupplyForecast }) | undefined> {
  const med = await medication(db, access, medicationId);
  if (!med) return undefined;
  const marks = (await ownedRows(db, 'dose_log', med.user_id)
    .select(['day', 'slot', 'status'])
    .where('medication_id', '=', medicationId)
    .where('day', '>=', addDays(today, -(ADHERENCE_DAYS - 1)))
    .where('day', '<=', today)
    .execute()) as DoseMark[];
  return {
    ...adherenceOf(med, marks, today),
    supply: supplyForecast(med, today, markedOn(marks, today)),
  };
}

export function createDoseRepository(db: Kysely<DB>) {
  return {
    today: (access: Access, day: string) => todaysDoses(db, access, day),
    mark: (access: Access, input: DoseMarkInput) => markDose(db, access, input),
    shareOfMedication: (access: Access, medicationId: string) =>
      shareOfMedication(db, access, medicationId),
    undo: (access: Access, id: string) => undoMark(db, access, id),
    refill: (access: Access, medicationId: string, input: RefillInput) =>
      refill(db, access, medicationId, input),
    supplies: (userId: string, day: string) => supplies(db, userId, day),
    adherence: (access: Access, medicationId: string, today: string) =>
      adherence(db, access, medicationId, today),
  };
}

export type DoseRepository = ReturnType<typeof createDoseRepository>;
