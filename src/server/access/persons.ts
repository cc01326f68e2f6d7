/**
 * Which persons a request may reach, for every route that names one: readable (a person of
 * the user's own, or one shared with them in any role), writable (their own, or shared as
 * editor), exportable (their own, or shared on a grant that allows sharing and export: a
 * PDF, a FHIR bundle, a share link), and the user's own alone (what only the owner decides
 * or brings in: an import, a connection, a calendar link, whether a schedule is tracked).
 *
 * A person the request may not reach is answered as one that does not exist (404, "Person
 * not found"), never as one that is there but closed, so an id tells nothing about whose it
 * is. The one exception is a viewer's write, which the viewer can see is refused (403).
 * Records are then read as the owner's, whose id comes with the person; the rows themselves
 * keep to the scope built in scope.ts.
 */
import type { Kysely } from 'kysely';
import { ApiError } from '../../shared/api-error';
import { key } from '../../shared/i18n/translate';
import { UNKNOWN_MEMBER_MESSAGE } from '../../shared/records/fields';
import type { DB } from '../db/schema';
import { badRequest, notFound } from '../http/errors';
import { findPerson, type Person } from '../persons/person-records';
import { shareOfPerson, type Access, type Share } from './scope';

export const PERSON_NOT_FOUND = key('Person not found');

/** A person a request reaches: whose records they are, and the share they come by, if any. */
export interface ReachedPerson {
  ownerId: string;
  person: Person;
  /** The share the person is reached by; none for the user's own. */
  share?: Share | undefined;
}

/**
 * A person the request may read: the user, a member of theirs, or a person shared with
 * them (a viewer reads too). Anyone else is not found.
 */
export async function readablePerson(
  db: Kysely<DB>,
  access: Access,
  personId: string,
): Promise<ReachedPerson> {
  const share = shareOfPerson(access, personId);
  const ownerId = share?.ownerId ?? access.userId;
  const person = await findPerson(db, ownerId, personId);
  if (!person) throw notFound(PERSON_NOT_FOUND);
  return { ownerId, person, share };
}

/**
 * A person whose records the user may take away (a PDF, a FHIR bundle, a share link): one
 * of their own, or one shared with them on a grant that allows sharing and export. Undefined
 * for anyone else (a grant that does not allow export reaches no one here).
 */
export async function findExportablePerson(
  db: Kysely<DB>,
  access: Access,
  personId: string,
): Promise<{ ownerId: string; person: Person; shared: boolean } | undefined> {
  const share = shareOfPerson(access, personId);
  const ownerId = share?.allowExport ? share.ownerId : access.userId;
  const person = await findPerson(db, ownerId, personId);
  return person && { ownerId, person, shared: ownerId !== access.userId };
}

/** The same, for a route: anyone else is not found. */
export async function exportablePerson(
  db: Kysely<DB>,
  access: Access,
  personId: string,
): Promise<{ ownerId: string; person: Person; shared: boolean }> {
  const found = await findExportablePerson(db, access, personId);
  if (!found) throw notFound(PERSON_NOT_FOUND);
  return found;
}

/** A person of the user's own (themself or a member); anyone else, a shared person too, is not found. */
export async function ownPerson(db: Kysely<DB>, userId: string, personId: string): Promise<Person> {
  const person = await findPerson(db, userId, personId);
  if (!person) throw notFound(PERSON_NOT_FOUND);
  return person;
}

/**
 * The person with this id among the user's own, read already for more than the lookup (an
 * import matches a file's patient against them); anyone else is not found.
 */
export function ownPersonAmong<P extends { id: string }>(
  persons: readonly P[],
  personId: string,
): P {
  const person = persons.find((each) => each.id === personId);
  if (!person) throw notFound(PERSON_NOT_FOUND);
  return person;
}

/** The answer to a viewer's write: they may read the person, not change their records. */
export const VIEW_ONLY_MESSAGE = key('You can view these records but not change them');
export const viewOnly = () => new ApiError(403, VIEW_ONLY_MESSAGE);

/**
 * Where a record being written goes: the owner and member for the person the request
 * names (none: the user themself). A member of the user's or a person shared as editor;
 * a person shared as viewer is refused with 403; anything else with 400 naming the field
 * (a record's member is a field of its form, not a person in the address).
 */
export async function writeTarget(
  access: Access,
  personId: string | null | undefined,
  ownsMember: (memberId: string) => Promise<boolean>,
): Promise<{ owner: string; member: string | null; share?: Share }> {
  if (!personId) return { owner: access.userId, member: null };
  const share = shareOfPerson(access, personId);
  if (share) {
    if (share.role !== 'editor') throw viewOnly();
    return { owner: share.ownerId, member: share.memberId, share };
  }
  if (await ownsMember(personId)) return { owner: access.userId, member: personId };
  throw badRequest(UNKNOWN_MEMBER_MESSAGE, 'family_member_id');
}
