/** Family members, each owned by one user; deleting the user deletes them. */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('family_members')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('user.id').onDelete('cascade'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('date_of_birth', 'text')
    .addColumn('color', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    // Lets record tables reference (member, owner) together, so that a record can only
    // ever point at a member of its own user.
    .addUniqueConstraint('family_members_id_user_unique', ['id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('family_members_user_created_idx')
    .on('family_members')
    .columns(['user_id', 'created_at', 'id'])
    .execute();
}
