/**
 * The persons a record is for, kept beside it (migration 0020, `contact_persons`): a
 * contact's 'Cares For'. Each is the account holder (their own id, no member) or one of
 * their family members; a record with none is the whole family's. Only the account that
 * owns the record names its persons, and only its own persons.
 */
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { deleteOwned, ownedBy, ownedRow, ownedRows } from '../access/scope';
import type { DB } from '../db/schema';
import { badRequest } from '../http/errors';
import { tr } from '../../shared/i18n/translate';

/**
 * The persons the contacts of a user are for, by contact id (absent: the whole family): of
 * the contacts named (a page of a list), or of every contact of the user's ('all').
 */
export async function personsOfContacts(
  db: Kysely<DB>,
  userId: string,
  contactIds: readonly string[] | 'all',
): Promise<Map<string, string[]>> {
  const persons = new Map<string, string[]>();
  if (contactIds.length === 0) return persons;
  let query = ownedRows(db, 'contact_persons', userId)
    .select(['contact_id', 'person_id'])
    .orderBy('contact_id')
    .orderBy('person_id');
  if (contactIds !== 'all') query = query.where('contact_id', 'in', contactIds);
  const rows = await query.execute();
  for (const row of rows) {
    const list = persons.get(row.contact_id) ?? [];
    list.push(row.person_id);
    persons.set(row.contact_id, list);
  }
  return persons;
}

/**
 * The rows of the persons named, for the user's account: each the user themself or one of
 * their family members; any other id is refused by the field's name.
 */
export async function personRowsOf(
  db: Kysely<DB>,
  userId: string,
  personIds: readonly string[],
  field: { name: string; label: string },
): Promise<{ person_id: string; family_member_id: string | null }[]> {
  const memberIds = personIds.filter((id) => id !== userId);
  const found =
    memberIds.length === 0
      ? []
      : await ownedRows(db, 'family_members', userId)
          .select('id')
          .where('id', 'in', memberIds)
          .execute();
  const known = new Set(found.map((row) => row.id));
  const unknown = memberIds.find((id) => !known.has(id));
  if (unknown !== undefined) {
    throw badRequest(
      tr('{label} must name you or your family members', { label: tr(field.label) }),
      field.name,
    );
  }
  return personIds.map((id) => ({
    person_id: id,
    family_member_id: id === userId ? null : id,
  }));
}

/** Replaces the persons a contact of the user's is for. */
export async function setContactPersons(
  db: Kysely<DB>,
  userId: string,
  contactId: string,
  persons: readonly { person_id: string; family_member_id: string | null }[],
): Promise<void> {
  await deleteOwned(db, 'contact_persons', userId).where('contact_id', '=', contactId).execute();
  if (persons.length === 0) return;
  await db
    .insertInto('contact_persons')
    .values(persons.map((person) => ownedRow(userId, { contact_id: contactId, ...person })))
    .execute();
}

/**
 * The condition that keeps the user's contacts (`alias`) to those of one person: the ones
 * tied to them, and, when asked for, the whole family's (tied to no one).
 */
export function contactsOfPerson(
  userId: string,
  personId: string,
  options: { wholeFamily: boolean },
  alias = 'contacts',
): RawBuilder<SqlBool> {
  const links = (person: RawBuilder<SqlBool> | null) =>
    sql`select 1 from contact_persons as cp where ${ownedBy('contact_persons', userId, 'cp')} and cp.contact_id = ${sql.ref(`${alias}.id`)}${person ? sql` and ${person}` : sql``}`;
  const tied = sql<SqlBool>`exists (${links(sql<SqlBool>`cp.person_id = ${personId}`)})`;
  if (!options.wholeFamily) return tied;
  return sql<SqlBool>`(${tied} or not exists (${links(null)}))`;
}
