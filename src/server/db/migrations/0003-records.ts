/**
 * The seven record tables. Every row is owned by a user; a row linked to a family member
 * references (member, owner) together, so it can never point at another user's member,
 * and it goes when the member goes. Calendar dates are `YYYY-MM-DD` text and visit_date a
 * UTC ISO timestamp, so both engines store, compare and return them the same way.
 * Booleans are 0/1 integers on both engines for the same reason.
 */
import type { CreateTableBuilder, Kysely } from 'kysely';
import { sql } from 'kysely';

type Column = [
  name: string,
  kind: 'text' | 'required text' | 'flag' | 'number',
  defaultValue?: string,
];

/** A record table as its migration makes it (later types' migrations make theirs the same way). */
export interface TableSpec {
  name: string;
  memberLinked: boolean;
  columns: Column[];
  /** Index column lists, each led by user_id or family_member_id. */
  indexes: string[][];
}

const tables: TableSpec[] = [
  {
    name: 'visits',
    memberLinked: true,
    columns: [
      ['visit_name', 'required text'],
      ['doctor_name', 'text'],
      ['visit_date', 'required text'],
      ['frequency', 'text'],
      ['office_name', 'text'],
      ['notes', 'text'],
    ],
    indexes: [
      ['user_id', 'visit_date', 'id'],
      ['family_member_id', 'visit_date', 'id'],
    ],
  },
  {
    name: 'medications',
    memberLinked: true,
    columns: [
      ['medication_name', 'required text'],
      ['dosage', 'text'],
      ['frequency', 'text'],
      ['time_morning', 'flag'],
      ['time_noon', 'flag'],
      ['time_evening', 'flag'],
      ['time_night', 'flag'],
      ['start_date', 'text'],
      ['end_date', 'text'],
      ['condition', 'text'],
      ['prescribed_doctor', 'text'],
      ['notes', 'text'],
    ],
    indexes: [
      ['user_id', 'start_date', 'id'],
      ['user_id', 'end_date'],
      ['family_member_id', 'start_date', 'id'],
    ],
  },
  {
    name: 'shots',
    memberLinked: true,
    columns: [
      ['shot_name', 'required text'],
      ['date_administered', 'text'],
      ['location', 'text'],
      ['notes', 'text'],
    ],
    indexes: [
      ['user_id', 'date_administered', 'id'],
      ['family_member_id', 'date_administered', 'id'],
    ],
  },
  {
    name: 'health_history',
    memberLinked: true,
    columns: [
      ['condition_name', 'required text'],
      ['diagnosis_date', 'text'],
      ['status', 'text'],
      ['is_family_history', 'flag'],
      ['relation', 'text'],
      ['notes', 'text'],
    ],
    indexes: [
      ['user_id', 'diagnosis_date', 'id'],
      ['family_member_id', 'diagnosis_date', 'id'],
    ],
  },
  {
    name: 'notes',
    memberLinked: true,
    columns: [
      ['title', 'required text'],
      ['note_type', 'text'],
      ['note_date', 'text'],
      ['content', 'text'],
    ],
    indexes: [
      ['user_id', 'note_date', 'id'],
      ['family_member_id', 'note_date', 'id'],
    ],
  },
  {
    name: 'insurance',
    memberLinked: true,
    columns: [
      ['insurance_type', 'required text', 'Medical'],
      ['provider_name', 'required text'],
      ['policy_number', 'text'],
      ['group_number', 'text'],
      ['coverage_details', 'text'],
      ['deductible', 'text'],
      ['copay', 'text'],
      ['effective_date', 'text'],
      ['expiry_date', 'text'],
      ['status', 'required text', 'current'],
    ],
    indexes: [
      ['user_id', 'status', 'insurance_type'],
      ['family_member_id', 'status', 'insurance_type'],
    ],
  },
  {
    name: 'contacts',
    memberLinked: false,
    columns: [
      ['contact_name', 'required text'],
      ['contact_type', 'required text', 'Doctor'],
      ['specialty', 'text'],
      ['phone_number', 'text'],
      ['email', 'text'],
      ['address', 'text'],
      ['notes', 'text'],
    ],
    indexes: [['user_id', 'contact_name']],
  },
];

function addColumn(
  builder: CreateTableBuilder<string, string>,
  [name, kind, defaultValue]: Column,
) {
  if (kind === 'flag') {
    return builder
      .addColumn(name, 'integer', (col) => col.notNull().defaultTo(0))
      .addCheckConstraint(`${name}_is_flag`, sql.raw(`"${name}" in (0, 1)`));
  }
  // A measured number (a later type's: vitals), a double on PostgreSQL, a real on SQLite.
  if (kind === 'number') return builder.addColumn(name, 'double precision');
  return builder.addColumn(name, 'text', (col) => {
    const required = kind === 'required text' ? col.notNull() : col;
    return defaultValue === undefined ? required : required.defaultTo(defaultValue);
  });
}

/** Makes one record table: id, owner, member, its columns, times, the member key, indexes. */
export async function createRecordTable(db: Kysely<unknown>, table: TableSpec): Promise<void> {
  {
    let builder: CreateTableBuilder<string, string> = db.schema
      .createTable(table.name)
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) =>
        col.notNull().references('user.id').onDelete('cascade'),
      );
    if (table.memberLinked) builder = builder.addColumn('family_member_id', 'text');
    for (const column of table.columns) builder = addColumn(builder, column);
    builder = builder
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull());
    if (table.memberLinked) {
      builder = builder.addForeignKeyConstraint(
        `${table.name}_member_fk`,
        ['family_member_id', 'user_id'],
        'family_members',
        ['id', 'user_id'],
        (constraint) => constraint.onDelete('cascade'),
      );
    }
    await builder.execute();
    for (const columns of table.indexes) {
      await db.schema
        .createIndex(`${table.name}_${columns.join('_')}_idx`)
        .on(table.name)
        .columns(columns)
        .execute();
    }
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of tables) await createRecordTable(db, table);
}
