/**
 * The persons a contact cares for (a child's paediatrician, the grandmother's cardiologist):
 * one row per contact and person, the person being the account holder (their own id, no
 * member) or one of their family members. A contact with no rows is the whole family's.
 * The rows go with their contact, their member and their account.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('contact_persons')
    .addColumn('contact_id', 'text', (col) =>
      col.notNull().references('contacts.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    .addColumn('person_id', 'text', (col) => col.notNull())
    .addColumn('family_member_id', 'text')
    .addPrimaryKeyConstraint('contact_persons_pk', ['contact_id', 'person_id'])
    .addForeignKeyConstraint(
      'contact_persons_member_fk',
      ['family_member_id', 'user_id'],
      'family_members',
      ['id', 'user_id'],
      (constraint) => constraint.onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('contact_persons_person_idx')
    .on('contact_persons')
    .columns(['user_id', 'person_id'])
    .execute();
}
