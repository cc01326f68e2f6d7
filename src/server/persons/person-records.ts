/**
 * A person and their records, for what is made of one person at a time (a FHIR bundle, the
 * summary PDF, a share link). A person is the account holder (whose id is the user's own)
 * or one of their family members; any other id is no one, so another user's person is
 * never found. A person's records of a member-linked type are the rows linked to them (for
 * the account holder: the rows linked to no member), family history recorded for them
 * included; their contacts are the ones that care for them (migration 0020), and the whole
 * family's (tied to no one) only when the owner asks for them: a grantee never gets those.
 *
 * Rows are read a page at a time, ordered by id (ids grow with time), each page starting
 * after the last id of the one before: a long history streams in flat memory, and a page
 * costs the same at the end as at the start.
 */
import type { Kysely } from 'kysely';
import { definitionsByType } from '../../shared/records';
import type { RecordDefinition, RecordType } from '../../shared/records/definition';
import { ownedBy, ownedRows } from '../access/scope';
import type { DB } from '../db/schema';
import { isId } from '../ids';
import { contactsOfPerson } from '../records/record-persons';
import { recordRows } from '../records/record-rows';
import type { DoseRow } from '../fhir/fhir-source';

/** Rows read per query. */
export const PAGE_ROWS = 500;

export interface Person {
  id: string;
  name: string;
  /** `YYYY-MM-DD`, when known; the account holder has none. */
  date_of_birth: string | null;
  /** The account holder's email; family members have none. */
  email: string | null;
  /** The family member the person is, or null for the account holder. */
  family_member_id: string | null;
}

/** The user's person with this id, or undefined when it is not one of theirs. */
export async function findPerson(
  db: Kysely<DB>,
  userId: string,
  personId: string,
): Promise<Person | undefined> {
  if (personId === userId) {
    const user = await ownedRows(db, 'user', userId)
      .select(['id', 'name', 'email'])
      .executeTakeFirst();
    return user && { ...user, date_of_birth: null, family_member_id: null };
  }
  if (!isId(personId)) return undefined;
  const member = await ownedRows(db, 'family_members', userId)
    .select(['id', 'name', 'date_of_birth'])
    .where('id', '=', personId)
    .executeTakeFirst();
  return member && { ...member, email: null, family_member_id: member.id };
}

export interface PersonRecordOptions {
  /** Rows read per query. */
  pageRows?: number;
  /** Also the whole family's contacts (tied to no one): the owner's choice, never a grantee's. */
  wholeFamilyContacts?: boolean;
}

/** A stored record of a person, as the API returns it without its member's name. */
export type PersonRecord = Record<string, unknown> & {
  id: string;
  created_at: string;
  updated_at: string;
};

/** Every record of one type of the person, a page at a time, in the order they were made. */
export async function* personRecords(
  db: Kysely<DB>,
  userId: string,
  person: Person,
  type: RecordType,
  { pageRows = PAGE_ROWS, wholeFamilyContacts = false }: PersonRecordOptions = {},
): AsyncGenerator<PersonRecord> {
  const definition: RecordDefinition = definitionsByType[type];
  const rows = recordRows(definition);
  const columns = [
    'id',
    ...rows.fieldNames,
    ...(definition.memberLinked && !('family_member_id' in definition.fields)
      ? ['family_member_id']
      : []),
    'created_at',
    'updated_at',
  ];
  let after: string | null = null;
  for (;;) {
    let query = ownedRows(db, definition.table, userId)
      .select(columns as never[])
      .orderBy('id')
      .limit(pageRows);
    if (definition.memberLinked) {
      query = query.where(
        'family_member_id',
        person.family_member_id === null ? 'is' : '=',
        person.family_member_id,
      );
    }
    if (definition.table === 'contacts') {
      query = query.where(
        contactsOfPerson(userId, person.id, { wholeFamily: wholeFamilyContacts }),
      );
    }
    if (after !== null) query = query.where('id', '>', after);
    const page = (await query.execute()) as Record<string, unknown>[];
    for (const row of page) {
      const record = rows.fromRow(row);
      delete record.family_member_name;
      delete record.family_member_color;
      yield record as PersonRecord;
    }
    if (page.length < pageRows) return;
    after = page[page.length - 1]!.id as string;
  }
}

/** The dose log of the person's medications, a page at a time, in the order it was written. */
export async function* personDoses(
  db: Kysely<DB>,
  userId: string,
  person: Person,
  pageRows: number = PAGE_ROWS,
): AsyncGenerator<DoseRow> {
  let after: string | null = null;
  for (;;) {
    let query = ownedRows(db, 'dose_log', userId, 'd')
      .innerJoin('medications as r', (join) =>
        join.onRef('r.id', '=', 'd.medication_id').on(ownedBy('medications', userId, 'r')),
      )
      .select(['d.id', 'd.medication_id', 'd.day', 'd.slot', 'd.status', 'd.marked_at'])
      .where(
        'r.family_member_id',
        person.family_member_id === null ? 'is' : '=',
        person.family_member_id,
      )
      .orderBy('d.id')
      .limit(pageRows);
    if (after !== null) query = query.where('d.id', '>', after);
    const page = (await query.execute()) as DoseRow[];
    yield* page;
    if (page.length < pageRows) return;
    after = page[page.length - 1]!.id;
  }
}
