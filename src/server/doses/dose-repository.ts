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
  type TodayDoses,
} from '../../shared/doses';
import type { DoseMarkInput } from '../../shared/dose-requests';
import { deleteOwned, ownedRow, ownedRows } from '../access/access';
import {
  inScope,
  membersOfScope,
  rowsInScope,
  scopeOf,
  scopeValues,
  shareOfRow,
  viewOnly,
  type Access,
  type Scope,
  type Share,
} from '../access/scope';
import type { DB } from '../db/schema';
import { withPersonNames } from '../persons/person-columns';
import { badRequest } from '../http/errors';
import { isId, newId, nowTimestamp } from '../ids';

const MEDICATION_COLUMNS = [
  'r.id',
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
] as const;

interface MedicationRow extends Schedule {
  id: string;
  user_id: string;
  medication_name: string;
  dosage: string | null;
  family_member_id: string | null;
  family_member_name: string | null;
  family_member_color: string | null;
  created_at: string;
}

const MARK_COLUMNS = ['id', 'medication_id', 'day', 'slot', 'status', 'marked_at'] as const;

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

export function createDoseRepository(db: Kysely<DB>) {
  /** The medications a scope reads, current on `day`, each with its person's name and colour. */
  async function currentMedications(scope: Scope, day: string): Promise<MedicationRow[]> {
    const values = scopeValues(scope);
    const named = withPersonNames(
      rowsInScope(db, 'medications', scope, values, 'r'),
      scope,
      values,
      'r',
    );
    const rows = await named
      .select(MEDICATION_COLUMNS as never)
      .where((eb) => eb.or([eb('r.start_date', 'is', null), eb('r.start_date', '<=', day)]))
      .where((eb) => eb.or([eb('r.end_date', 'is', null), eb('r.end_date', '>=', day)]))
      .orderBy('r.medication_name')
      .orderBy('r.id')
      .execute();
    return (rows as Record<string, unknown>[]).map(medicationOf);
  }

  /** A medication the user reads (their own, or a shared person's), by id. */
  async function medication(access: Access, id: string): Promise<MedicationRow | undefined> {
    if (!isId(id)) return undefined;
    const scope = scopeOf(access, { memberLinked: true });
    const row = await rowsInScope(db, 'medications', scope, scopeValues(scope), 'r')
      .select(MEDICATION_COLUMNS as never)
      .where('r.id', '=', id)
      .executeTakeFirst();
    return row ? medicationOf(row as Record<string, unknown>) : undefined;
  }

  /** The dose marks of a scope's medications, as `d` (their medication as `r`). */
  function marksInScope(scope: Scope) {
    const values = scopeValues(scope);
    return db
      .selectFrom('dose_log as d')
      .innerJoin('medications as r', (join) =>
        join.onRef('r.id', '=', 'd.medication_id').on(inScope('medications', scope, values, 'r')),
      )
      .where(membersOfScope(scope, values, 'd'));
  }

  /** A medication whose doses the user may mark: their own, or a person's shared as Editor. */
  async function markable(access: Access, id: string): Promise<MedicationRow | undefined> {
    const med = await medication(access, id);
    if (med && med.user_id !== access.userId && shareOfRow(access, med)?.role !== 'editor') {
      throw viewOnly();
    }
    return med;
  }

  return {
    async today(access: Access, day: string): Promise<TodayDoses> {
      const scope = scopeOf(access, { memberLinked: true });
      const medications = await currentMedications(scope, day);
      // The day's marks of the scope's medications (a shared person's marks, not the rest
      // of their owner's).
      const marks = (await marksInScope(scope)
        .select(MARK_COLUMNS.map((column) => `d.${column}` as const))
        .where('d.day', '=', day)
        .orderBy('d.marked_at')
        .execute()) as DoseMark[];
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
    },

    /**
     * Marks a dose taken or skipped (again: the new mark replaces the old), or logs an 'As
     * Needed' dose. Undefined when the medication is not one of the user's.
     */
    async mark(access: Access, input: DoseMarkInput): Promise<DoseMark | undefined> {
      const med = await markable(access, input.medication_id);
      if (!med) return undefined;
      // The mark is the medication's owner's, whoever made it.
      const owner = med.user_id;
      if (input.slot === AS_NEEDED) {
        if (med.frequency !== AS_NEEDED) {
          throw badRequest('Slot: only an As Needed medication is logged as needed', 'slot');
        }
        if (input.status !== 'taken') {
          throw badRequest('Status: an As Needed dose is logged when taken', 'status');
        }
      } else if (!dueSlots(med, input.day).includes(input.slot)) {
        throw badRequest(
          `Slot: ${med.medication_name} is not due in the ${input.slot} on ${input.day}`,
          'slot',
        );
      }
      const row = ownedRow(owner, {
        id: newId(),
        ...input,
        marked_at: nowTimestamp(),
        marked_by: access.userId,
      });
      // In the caller's transaction when it has one (a reminder's button: its token is used
      // up with the mark, or not at all).
      const inTransaction = <T>(work: (trx: Kysely<DB>) => Promise<T>) =>
        db.isTransaction ? work(db) : db.transaction().execute(work);
      await inTransaction(async (trx) => {
        if (input.slot !== AS_NEEDED) {
          await deleteOwned(trx, 'dose_log', owner)
            .where('medication_id', '=', input.medication_id)
            .where('day', '=', input.day)
            .where('slot', '=', input.slot)
            .execute();
        }
        await trx.insertInto('dose_log').values(row).execute();
      });
      const { user_id: _owner, marked_by: _by, ...mark } = row;
      return mark as DoseMark;
    },

    /** The shared person a medication is about, if it is someone else's the user reads. */
    async shareOfMedication(access: Access, medicationId: string): Promise<Share | undefined> {
      if (access.shares.length === 0) return undefined;
      const med = await medication(access, medicationId);
      return med && med.user_id !== access.userId ? shareOfRow(access, med) : undefined;
    },

    /**
     * 'Undo': the mark is gone, and the dose is due (or missed) again. Answers the mark's
     * medication, or undefined when the user has no such mark.
     */
    async undo(access: Access, id: string): Promise<string | undefined> {
      if (!isId(id)) return undefined;
      const scope = scopeOf(access, { memberLinked: true });
      const found = await marksInScope(scope)
        .select(['d.user_id', 'd.medication_id'])
        .where('d.id', '=', id)
        .executeTakeFirst();
      if (!found) return undefined;
      const med = await markable(access, found.medication_id);
      if (!med) return undefined;
      const result = await deleteOwned(db, 'dose_log', med.user_id)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0 ? med.id : undefined;
    },

    async adherence(
      access: Access,
      medicationId: string,
      today: string,
    ): Promise<Adherence | undefined> {
      const med = await medication(access, medicationId);
      if (!med) return undefined;
      const marks = await ownedRows(db, 'dose_log', med.user_id)
        .select(['day', 'slot', 'status'])
        .where('medication_id', '=', medicationId)
        .where('day', '>=', addDays(today, -(ADHERENCE_DAYS - 1)))
        .where('day', '<=', today)
        .execute();
      return adherenceOf(med, marks as DoseMark[], today);
    },
  };
}

export type DoseRepository = ReturnType<typeof createDoseRepository>;
