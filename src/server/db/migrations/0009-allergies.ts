/**
 * Allergies, the eighth record type: a table made as the other seven were (an owned row, a
 * member of the same owner or none, dates as text), counted by the same triggers. Its
 * indexes serve the list (active first, by substance) and the timeline (by noted date).
 */
import { sql, type Kysely } from 'kysely';
import { createRecordTable } from './0003-records';
import { postgresTriggers, sqliteTriggers } from './0005-record-counts';
import { engineOf } from './engine';

export async function up(db: Kysely<unknown>): Promise<void> {
  await createRecordTable(db, {
    name: 'allergies',
    memberLinked: true,
    columns: [
      ['substance', 'required text'],
      ['reaction', 'text'],
      ['severity', 'text'],
      ['category', 'text'],
      ['status', 'required text', 'Active'],
      ['noted_date', 'text'],
      ['notes', 'text'],
    ],
    indexes: [
      ['user_id', 'status'],
      ['user_id', 'noted_date', 'id'],
      ['family_member_id', 'noted_date', 'id'],
    ],
  });
  const table = { name: 'allergies', memberLinked: true };
  const triggers = engineOf(db) === 'postgres' ? postgresTriggers(table) : sqliteTriggers(table);
  for (const statement of triggers) await sql.raw(statement).execute(db);
}
