/**
 * Vitals, a record type made as the others (an owned row, a member of the same owner or
 * none, counted by the same triggers), its measures numbers in their canonical UCUM units
 * (kg, cm, Cel, mm[Hg], /min, %, mg/dL; decision 0030). The account chooses the units it
 * reads them in ('metric' by default).
 */
import { sql, type Kysely } from 'kysely';
import { createRecordTable } from './0003-records';
import { postgresTriggers, sqliteTriggers } from './0005-record-counts';
import { engineOf } from './engine';

const measures = [
  'weight_kg',
  'height_cm',
  'head_circumference_cm',
  'systolic_mmhg',
  'diastolic_mmhg',
  'heart_rate_per_min',
  'respiratory_rate_per_min',
  'temperature_c',
  'oxygen_saturation_pct',
  'pain_score',
  'blood_glucose_mg_dl',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await createRecordTable(db, {
    name: 'vitals',
    memberLinked: true,
    columns: [
      ['measured_at', 'required text'],
      ...measures.map((name): [string, 'number'] => [name, 'number']),
      ['glucose_timing', 'text'],
      ['notes', 'text'],
    ],
    // The list and the trends (newest first), and the timeline, per owner and per member.
    indexes: [
      ['user_id', 'measured_at', 'id'],
      ['family_member_id', 'measured_at', 'id'],
    ],
  });
  await db.schema.alterTable('vitals').addColumn('changed_by', 'text').execute();

  const table = { name: 'vitals', memberLinked: true };
  const postgres = engineOf(db) === 'postgres';
  // On PostgreSQL the totals are kept once per statement (0018), a move once per row.
  const triggers = postgres
    ? [
        `create trigger "vitals_counts_insert" after insert on "vitals"
         referencing new table as "added_rows"
         for each statement execute function "record_counts_added"('member')`,
        `create trigger "vitals_counts_delete" after delete on "vitals"
         referencing old table as "removed_rows"
         for each statement execute function "record_counts_removed"('member')`,
        ...postgresTriggers(table).filter((statement) => statement.includes('_counts_move')),
      ]
    : sqliteTriggers(table);
  for (const statement of triggers) await sql.raw(statement).execute(db);

  await db.schema
    .alterTable('user')
    .addColumn('units', 'text', (col) => col.notNull().defaultTo('metric'))
    .execute();
}
