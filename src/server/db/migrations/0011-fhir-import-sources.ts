/**
 * Where imported records came from: one row per record a FHIR import brought into a person,
 * naming the resource it was read from (`source_id`, the same on every import of the same
 * file). A second import of the file into the same person skips what is already here.
 * The row goes with its account and its family member (a person is the account holder,
 * `person_id` = the user's id and no member, or a member).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('fhir_import_sources')
    .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    .addColumn('person_id', 'text', (col) => col.notNull())
    .addColumn('family_member_id', 'text', (col) =>
      col.references('family_members.id').onDelete('cascade'),
    )
    .addColumn('source_id', 'text', (col) => col.notNull())
    .addColumn('record_type', 'text', (col) => col.notNull())
    .addColumn('record_id', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('fhir_import_sources_pk', ['user_id', 'person_id', 'source_id'])
    .execute();
  await db.schema
    .createIndex('fhir_import_sources_member_idx')
    .on('fhir_import_sources')
    .column('family_member_id')
    .execute();
}
