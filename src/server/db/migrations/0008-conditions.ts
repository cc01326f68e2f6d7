/**
 * One name for one concept: the table of health-history conditions is `conditions`, as the
 * record type (`condition`), its definition and its code are named. Its screens keep the
 * route SPEC.md gives them (/history).
 *
 * The rename carries the table's rows, indexes and triggers; what names the table in text
 * is renamed with it: the per-type totals (record_counts.record_table), the count triggers
 * (whose SQLite bodies spell the table's name), the indexes and the member constraint.
 */
import { sql, type Kysely } from 'kysely';
import { engineOf } from './engine';
import { sqliteTriggers } from './0005-record-counts';

const INDEXES = [
  ['user_id', 'diagnosis_date', 'id'],
  ['family_member_id', 'diagnosis_date', 'id'],
];
const indexName = (table: string, columns: string[]) => `${table}_${columns.join('_')}_idx`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = engineOf(db) === 'postgres';
  const statements = [`alter table "health_history" rename to "conditions"`];
  if (postgres) {
    statements.push(
      `alter trigger "health_history_counts" on "conditions" rename to "conditions_counts"`,
      `alter trigger "health_history_counts_move" on "conditions" rename to "conditions_counts_move"`,
      `alter table "conditions" rename constraint "health_history_member_fk" to "conditions_member_fk"`,
      ...INDEXES.map(
        (columns) =>
          `alter index "${indexName('health_history', columns)}" rename to "${indexName('conditions', columns)}"`,
      ),
    );
  } else {
    statements.push(
      ...['insert', 'delete', 'move'].map(
        (event) => `drop trigger "health_history_counts_${event}"`,
      ),
      ...sqliteTriggers({ name: 'conditions', memberLinked: true }),
      ...INDEXES.flatMap((columns) => [
        `drop index "${indexName('health_history', columns)}"`,
        `create index "${indexName('conditions', columns)}" on "conditions" (${columns
          .map((column) => `"${column}"`)
          .join(', ')})`,
      ]),
    );
  }
  statements.push(
    `update "record_counts" set "record_table" = 'conditions' where "record_table" = 'health_history'`,
  );
  for (const statement of statements) await sql.raw(statement).execute(db);
}
