/**
 * The household: an owner lets another account see (viewer) or also keep (editor) one
 * person's records. A grant names the person (the owner's own id, or a member's, whose
 * row it goes with) and the other account by email, so a grant can wait for that email to
 * sign up; it may end on a date. Each record remembers the account that last changed it.
 */
import type { Kysely } from 'kysely';

/** The record tables there were when this migration was written; later ones make their own column. */
const recordTables = [
  'visits',
  'medications',
  'shots',
  'notes',
  'conditions',
  'allergies',
  'insurance',
  'contacts',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('access_grants')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    .addColumn('person_id', 'text', (col) => col.notNull())
    .addColumn('family_member_id', 'text')
    .addColumn('grantee_email', 'text', (col) => col.notNull())
    .addColumn('role', 'text', (col) => col.notNull())
    .addColumn('allow_export', 'integer', (col) => col.notNull().defaultTo(0))
    // The last day as the owner entered it, and the moment it ends (the next midnight in
    // the owner's time zone); both null for a grant without an end.
    .addColumn('access_ends', 'text')
    .addColumn('ends_at', 'text')
    .addColumn('last_read_on', 'text')
    .addColumn('last_write_on', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addForeignKeyConstraint(
      'access_grants_member_fk',
      ['family_member_id', 'user_id'],
      'family_members',
      ['id', 'user_id'],
      (constraint) => constraint.onDelete('cascade'),
    )
    .addUniqueConstraint('access_grants_person_email_unique', [
      'user_id',
      'person_id',
      'grantee_email',
    ])
    .execute();
  await db.schema
    .createIndex('access_grants_grantee_idx')
    .on('access_grants')
    .column('grantee_email')
    .execute();
  for (const table of recordTables) {
    await db.schema.alterTable(table).addColumn('changed_by', 'text').execute();
  }
}
