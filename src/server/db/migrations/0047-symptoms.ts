/**
 * Symptoms, a record type made as the others (an owned row, a member of the same owner or
 * none, moments as UTC ISO text, the severity a number), counted by the same triggers (on
 * PostgreSQL once per statement, as 0018 made them). Its indexes serve the list, the
 * timeline and the charts' severity marks (by start, per owner and per member).
 */
import { sql, type Kysely } from 'kysely';
import { createRecordTable } from './0003-records';
import { postgresTriggers, sqliteTriggers } from './0005-record-counts';
import { statementTriggers } from './0018-record-counts-per-statement';
import { engineOf } from './engine';

export async function up(db: Kysely<unknown>): Promise<void> {
  await createRecordTable(db, {
    name: 'symptoms',
    memberLinked: true,
    columns: [
      ['symptom', 'required text'],
      ['severity', 'number'],
      ['started_at', 'required text'],
      ['ended_at', 'text'],
      ['notes', 'text'],
    ],
    indexes: [
      ['user_id', 'started_at', 'id'],
      ['family_member_id', 'started_at', 'id'],
    ],
  });
  await db.schema.alterTable('symptoms').addColumn('changed_by', 'text').execute();
  const table = { name: 'symptoms', memberLinked: true };
  const triggers =
    engineOf(db) === 'postgres'
      ? [...postgresTriggers(table), ...statementTriggers(table)]
      : sqliteTriggers(table);
  for (const statement of triggers) await sql.raw(statement).execute(db);
}
