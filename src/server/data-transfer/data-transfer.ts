/**
 * Export and import of a user's whole data. The export is every family member and record
 * of the user, as stored. The import checks every row with the same schemas as the API,
 * gives every row a new id (keeping each record with its member), and writes it all in
 * one transaction: an import is complete or it changed nothing. Checking a large file is
 * done a slice at a time, so the server answers other requests meanwhile.
 */
import type { Kysely } from 'kysely';
import {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  IMPORT_NEEDS_EMPTY_ACCOUNT,
  type DataExport,
  type ExportedRow,
  type ImportFile,
  type ImportSummary,
} from '../../shared/data-export';
import type { DoseMark } from '../../shared/doses';
import { familyMemberSchema } from '../../shared/family-members';
import { recordDefinitions } from '../../shared/records';
import type { RecordDefinition, RecordTable } from '../../shared/records/definition';
import { ownedRow, ownedRows, type OwnedTable } from '../access/access';
import type { DB } from '../db/schema';
import { ApiError } from '../../shared/api-error';
import { badRequest } from '../http/errors';
import { firstIssue } from '../http/validation';
import { newId } from '../ids';
import { recordRows } from '../records/record-rows';

const INSERT_BATCH = 500;
/** Rows checked between two turns of the event loop. */
const CHECK_SLICE = 500;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function stripOwner(row: Record<string, unknown>): ExportedRow {
  const { user_id: _owner, ...rest } = row;
  return rest as ExportedRow;
}

export async function exportUserData(db: Kysely<DB>, userId: string): Promise<DataExport> {
  const profile = await ownedRows(db, 'user', userId)
    .select(['name', 'email'])
    .executeTakeFirstOrThrow();
  const members = await ownedRows(db, 'family_members', userId)
    .select(['id', 'name', 'date_of_birth', 'sex', 'color', 'created_at', 'updated_at'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const records = {} as Record<RecordTable, ExportedRow[]>;
  for (const definition of recordDefinitions) {
    const rows = recordRows(definition as RecordDefinition);
    const stored = await ownedRows(db, definition.table, userId)
      .selectAll()
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    records[definition.table] = stored.map((row) => {
      // Who last changed a record is an account id of this server: not part of the data.
      const {
        family_member_name: _name,
        family_member_color: _color,
        changed_by: _changedBy,
        ...record
      } = rows.fromRow(row);
      return stripOwner(record);
    });
  }
  const doseLog = (await ownedRows(db, 'dose_log', userId)
    .select(['id', 'medication_id', 'day', 'slot', 'status', 'marked_at'])
    .orderBy('day')
    .orderBy('id')
    .execute()) as DoseMark[];
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exported_at: new Date().toISOString(),
    profile: { full_name: profile.name, email: profile.email },
    family_members: members as ExportedRow[],
    records,
    dose_log: doseLog,
  };
}

function refuse(
  where: string,
  error: { issues: Parameters<typeof firstIssue>[0]['issues'] },
): never {
  const issue = firstIssue(error);
  throw badRequest(`${where}: ${issue.message}`, issue.field);
}

export async function accountIsEmpty(db: Kysely<DB>, userId: string): Promise<boolean> {
  const tables: OwnedTable[] = [
    'family_members',
    ...recordDefinitions.map((definition) => definition.table),
  ];
  for (const table of tables) {
    const row = await ownedRows(db, table, userId).select('id').limit(1).executeTakeFirst();
    if (row) return false;
  }
  return true;
}

/** Inserts rows a few hundred at a time (SQLite and PostgreSQL bound a statement's values). */
export async function insertAll(
  db: Kysely<DB>,
  table: 'family_members' | 'fhir_import_sources' | 'dose_log' | RecordTable,
  rows: Record<string, unknown>[],
) {
  for (let start = 0; start < rows.length; start += INSERT_BATCH) {
    await db
      .insertInto(table)
      .values(rows.slice(start, start + INSERT_BATCH) as never)
      .execute();
  }
}

/** Imports a checked export file into an empty account. */
export async function importUserData(
  database: Kysely<DB>,
  userId: string,
  file: ImportFile,
): Promise<ImportSummary> {
  const memberIds = new Map<string, string>();
  const memberRows = file.family_members.map((member, index) => {
    const parsed = familyMemberSchema.safeParse(member);
    if (!parsed.success) refuse(`Family member ${index + 1}`, parsed.error);
    if (memberIds.has(member.id))
      throw badRequest(`Family member ${index + 1}: the id appears twice`);
    const id = newId();
    memberIds.set(member.id, id);
    return ownedRow(userId, {
      id,
      ...parsed.data,
      created_at: member.created_at,
      updated_at: member.updated_at,
    });
  });

  let records = 0;
  /** Each record's id in the file, and the id it is given here (for the dose log). */
  const recordIds = new Map<string, string>();
  const recordRowsByTable: { table: RecordTable; rows: Record<string, unknown>[] }[] = [];
  for (const definition of recordDefinitions as readonly RecordDefinition[]) {
    const rows = recordRows(definition);
    const items = file.records[definition.table] ?? [];
    records += items.length;
    const checked: Record<string, unknown>[] = [];
    for (const [index, item] of items.entries()) {
      if (index % CHECK_SLICE === CHECK_SLICE - 1) await nextTurn();
      const parsed = definition.schema.safeParse(item);
      if (!parsed.success) refuse(`${definition.noun} ${index + 1}`, parsed.error);
      const values = parsed.data as Record<string, unknown>;
      const memberId = values.family_member_id;
      if (typeof memberId === 'string' && !memberIds.has(memberId)) {
        throw badRequest(
          `${definition.noun} ${index + 1}: its family member is not in the file`,
          'family_member_id',
        );
      }
      const id = newId();
      recordIds.set(`${definition.table} ${item.id}`, id);
      checked.push(
        ownedRow(userId, {
          id,
          ...rows.toRow(values),
          ...(definition.memberLinked
            ? { family_member_id: typeof memberId === 'string' ? memberIds.get(memberId) : null }
            : {}),
          created_at: item.created_at,
          updated_at: item.updated_at,
        }),
      );
    }
    recordRowsByTable.push({ table: definition.table, rows: checked });
  }

  const doseRows = file.dose_log.map((dose, index) => {
    const medicationId = recordIds.get(`medications ${dose.medication_id}`);
    if (!medicationId) {
      throw badRequest(`Dose ${index + 1}: its medication is not in the file`, 'medication_id');
    }
    return ownedRow(userId, {
      ...dose,
      id: newId(),
      medication_id: medicationId,
      marked_by: userId,
    });
  });

  await database.transaction().execute(async (trx) => {
    // Checked again inside the transaction: nothing was added while the file was read.
    if (!(await accountIsEmpty(trx, userId))) {
      throw new ApiError(409, IMPORT_NEEDS_EMPTY_ACCOUNT);
    }
    await insertAll(trx, 'family_members', memberRows);
    for (const { table, rows } of recordRowsByTable) await insertAll(trx, table, rows);
    await insertAll(trx, 'dose_log', doseRows);
  });
  return { family_members: memberRows.length, records, doses: doseRows.length };
}
