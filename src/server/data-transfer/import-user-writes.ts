/**
 * The last step of importing an export file: its writes, in import-writes.ts's short
 * transactions. Members first (records name them), then each record type's new rows and
 * replacements, then the dose log (its medications are written), the persons of new
 * contacts, and the documents of an archive, attached to the records written.
 */
import type { Kysely } from 'kysely';
import type { ImportSummary } from '../../shared/data-export';
import { AS_NEEDED } from '../../shared/doses';
import type { ChangedChoice } from '../../shared/import-preview';
import { ownedRow, ownedRows, updateOwned } from '../access/scope';
import type { DB } from '../db/schema';
import { newId, nowTimestamp } from '../ids';
import type { ImportNote } from '../imports/import-history';
import { recordRows } from '../records/record-rows';
import type { CheckedFile } from './import-check';
import { writeDocuments } from './import-documents';
import { MATCH_SLICE, nextTurn, type RecordMatch } from './import-plan';
import { recordKey } from './import-rows';
import type { FilePlan, ImportArchive } from './import-user-plan';
import { writeImport, type ImportWrites } from './import-writes';

/** What every part of the writes knows: the file, its plan, and how a change is taken. */
interface ImportContext {
  userId: string;
  checked: CheckedFile;
  plan: FilePlan;
  now: string;
  /** Whether a row here that the file has changed takes the file's fields (as asked). */
  replace: (match: RecordMatch) => match is { kind: 'changed'; id: string };
}

/** The rows left as they are and those replaced, counted as the parts go. */
interface Tally {
  alreadyHere: number;
  replaced: number;
}

/** The file's members that are new here, added; changed ones replaced when asked. */
async function writeMembers(
  writes: ImportWrites,
  { userId, checked, plan, now, replace }: ImportContext,
  tally: Tally,
): Promise<number> {
  const memberRows: Record<string, unknown>[] = [];
  for (const [index, member] of checked.members.entries()) {
    const match = plan.members[index]!;
    if (match.kind === 'new') {
      memberRows.push(
        ownedRow(userId, {
          id: plan.memberIds.get(member.fileId),
          ...member.values,
          created_at: member.created_at,
          updated_at: member.updated_at,
        }),
      );
    } else if (replace(match)) {
      await writes.step(async (db) => {
        await updateOwned(db, 'family_members', userId)
          .set({ ...member.values, updated_at: now } as never)
          .where('id', '=', match.id)
          .execute();
      });
      tally.replaced += 1;
    } else tally.alreadyHere += 1;
  }
  await writes.insert('family_members', memberRows);
  return memberRows.length;
}

/** What the records written tell the parts after them. */
interface WrittenRecords {
  records: number;
  /** The persons new contacts care for, written once the records are. */
  contactPersons: Record<string, unknown>[];
  /** Each medication's id in the file, and its id here (for the dose log). */
  medicationIds: Map<string, string>;
  /** Each record of the file (recordKey), and its id here (for documents attached to it). */
  recordIds: Map<string, string>;
}

/**
 * Each record type's new rows, added with new ids and their members here; changed ones
 * replaced when asked.
 */
async function writeRecords(
  writes: ImportWrites,
  { userId, plan, now, replace }: ImportContext,
  tally: Tally,
): Promise<WrittenRecords> {
  const written: WrittenRecords = {
    records: 0,
    contactPersons: [],
    medicationIds: new Map(),
    recordIds: new Map(),
  };
  for (const { definition, items, matches } of plan.records) {
    const rows = recordRows(definition);
    const { personsField } = rows;
    const fresh: Record<string, unknown>[] = [];
    const replacements: { id: string; values: Record<string, unknown> }[] = [];
    for (const [index, item] of items.entries()) {
      if (index % MATCH_SLICE === MATCH_SLICE - 1) await nextTurn();
      const match = matches[index]!;
      const id = match.kind === 'new' ? newId() : match.id;
      if (definition.table === 'medications') written.medicationIds.set(item.fileId, id);
      written.recordIds.set(recordKey(definition.path, item.fileId), id);
      if (match.kind === 'new' && personsField) {
        // The persons a new contact cares for, as they are called here (none: the whole family).
        for (const personId of item.values[personsField] as string[]) {
          const member = plan.memberIds.get(personId);
          written.contactPersons.push(
            ownedRow(userId, {
              contact_id: id,
              person_id: member ?? userId,
              family_member_id: member ?? null,
            }),
          );
        }
      }
      if (match.kind === 'new') {
        fresh.push(
          ownedRow(userId, {
            id,
            ...rows.toRow(item.values),
            ...(definition.memberLinked
              ? {
                  family_member_id:
                    item.fileMemberId === null ? null : plan.memberIds.get(item.fileMemberId),
                }
              : {}),
            created_at: item.created_at,
            updated_at: item.updated_at,
          }),
        );
      } else if (replace(match)) replacements.push({ id: match.id, values: item.values });
      else tally.alreadyHere += 1;
    }
    written.records += fresh.length;
    await writes.insert(definition.table, fresh);
    tally.replaced += await writes.replace(definition, replacements, now);
  }
  return written;
}

/** The file's doses, each unless its medication here has it already; how many were added. */
async function writeDoses(
  database: Kysely<DB>,
  writes: ImportWrites,
  { userId, checked }: ImportContext,
  medicationIds: ReadonlyMap<string, string>,
): Promise<number> {
  const marked = new Set<string>();
  const scheduled = new Set<string>();
  for (const dose of await ownedRows(database, 'dose_log', userId)
    .select(['medication_id', 'day', 'slot', 'marked_at'])
    .execute()) {
    scheduled.add(`${dose.medication_id} ${dose.day} ${dose.slot}`);
    marked.add(`${dose.medication_id} ${dose.day} ${dose.slot} ${dose.marked_at}`);
  }
  const doseRows = checked.doses.flatMap((dose) => {
    const medicationId = medicationIds.get(dose.medication_id)!;
    const slotKey = `${medicationId} ${dose.day} ${dose.slot}`;
    const key = `${slotKey} ${dose.marked_at}`;
    // A scheduled dose has one mark; an as-needed dose is the same dose at the same moment.
    if (marked.has(key) || (dose.slot !== AS_NEEDED && scheduled.has(slotKey))) return [];
    marked.add(key);
    scheduled.add(slotKey);
    return [
      ownedRow(userId, {
        ...dose,
        id: newId(),
        medication_id: medicationId,
        marked_by: userId,
      }),
    ];
  });
  await writes.insert('dose_log', doseRows);
  return doseRows.length;
}

/** Writes a checked and planned export file; the ids of the documents it added. */
export async function writeUserImport(
  database: Kysely<DB>,
  userId: string,
  checked: CheckedFile,
  plan: FilePlan,
  changed: ChangedChoice,
  {
    archive,
    kept,
    history,
  }: { archive: ImportArchive | undefined; kept: string[]; history: ImportNote | undefined },
): Promise<Omit<ImportSummary, 'documents'> & { documentIds: string[] }> {
  return writeImport(
    database,
    userId,
    async (writes) => {
      const context: ImportContext = {
        userId,
        checked,
        plan,
        now: nowTimestamp(),
        replace: (match): match is { kind: 'changed'; id: string } =>
          match.kind === 'changed' && changed === 'replace',
      };
      const tally: Tally = { alreadyHere: 0, replaced: 0 };
      const members = await writeMembers(writes, context, tally);
      const written = await writeRecords(writes, context, tally);
      const doses = await writeDoses(database, writes, context, written.medicationIds);
      await writes.insert('contact_persons', written.contactPersons, 'contact_id');
      tally.alreadyHere += plan.documents.filter((match) => match.kind === 'same').length;
      const documentIds = archive
        ? await writeDocuments(writes, {
            userId,
            documents: checked.documents,
            matches: plan.documents,
            memberIds: plan.memberIds,
            recordIds: written.recordIds,
            files: archive.files,
            deps: archive.deps,
            kept,
          })
        : [];
      return {
        family_members: members,
        records: written.records,
        doses,
        already_here: tally.alreadyHere,
        replaced: tally.replaced,
        documentIds,
      };
    },
    history,
  );
}
