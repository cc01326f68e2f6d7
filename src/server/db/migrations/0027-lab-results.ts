/**
 * Lab results, a record type made as the others were (an owned row, a member of the same
 * owner or none, dates and numbers as text), counted by the same triggers (on PostgreSQL
 * once per statement, as 0018 made them). Its indexes serve the list and the timeline (by
 * collected date) and a test's trend for one person (by LOINC code, else by name).
 */
import { sql, type Kysely } from 'kysely';
import { createRecordTable } from './0003-records';
import { postgresTriggers, sqliteTriggers } from './0005-record-counts';
import { statementTriggers } from './0018-record-counts-per-statement';
import { engineOf } from './engine';

export async function up(db: Kysely<unknown>): Promise<void> {
  await createRecordTable(db, {
    name: 'lab_results',
    memberLinked: true,
    columns: [
      ['test_name', 'required text'],
      ['loinc_code', 'text'],
      ['result', 'required text'],
      ['unit', 'text'],
      ['range_low', 'text'],
      ['range_high', 'text'],
      ['collected_date', 'required text'],
      ['lab', 'text'],
      ['ordered_by', 'text'],
      ['notes', 'text'],
    ],
    indexes: [
      ['user_id', 'collected_date', 'id'],
      ['family_member_id', 'collected_date', 'id'],
      ['user_id', 'loinc_code'],
    ],
  });
  await db.schema.alterTable('lab_results').addColumn('changed_by', 'text').execute();
  const table = { name: 'lab_results', memberLinked: true };
  const triggers =
    engineOf(db) === 'postgres'
      ? [...postgresTriggers(table), ...statementTriggers(table)]
      : sqliteTriggers(table);
  for (const statement of triggers) await sql.raw(statement).execute(db);
}
