/**
 * The household's grants: an owner shares one person with another account's email, as a
 * viewer or an editor, until an optional last day. The owner's security activity records
 * every grant, change and removal, and the first read and the first write of each day a
 * grantee made of that person's records.
 */
import type { Kysely } from 'kysely';
import type { Grant, GrantValues, Household, SharedPerson } from '../../shared/household';
import { PAST_END_MESSAGE, SELF_SHARE_MESSAGE } from '../../shared/household';
import { DEFAULT_MEMBER_COLOR } from '../../shared/constants';
import { deleteOwned, ownedRow, ownedRows, updateOwned } from '../access/access';
import {
  inScope,
  scopeValues,
  shareOfPerson,
  type Access,
  type Scope,
  type Share,
} from '../access/scope';
import { recordAuditEvent, requestSource } from '../audit/audit-log';
import type { DB } from '../db/schema';
import { badRequest } from '../http/errors';
import { isId, newId, nowTimestamp } from '../ids';
import { findPerson } from '../persons/person-records';
import { instantOf } from '../reminders/time-zones';
import { createShareLinkStore } from '../share-links/share-link-store';

export const PERSON_UNKNOWN_MESSAGE = 'Person must be you or one of your family members';

const GRANT_COLUMNS = [
  'id',
  'person_id',
  'grantee_email',
  'role',
  'allow_export',
  'access_ends',
  'created_at',
] as const;

type GrantRow = Pick<DB['access_grants'], (typeof GRANT_COLUMNS)[number]>;

const toGrant = (row: GrantRow): Grant => ({
  id: row.id,
  personId: row.person_id,
  email: row.grantee_email,
  role: row.role === 'editor' ? 'editor' : 'viewer',
  allowExport: Boolean(row.allow_export),
  accessEnds: row.access_ends,
  createdAt: row.created_at,
});

/** The day after a calendar date (YYYY-MM-DD). */
function nextDay(day: string): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + 1)).toISOString().slice(0, 10);
}

/** The moment access ends: the midnight after its last day, in the owner's time zone. */
export function endOfAccess(accessEnds: string, timeZone: string): string {
  return instantOf(timeZone, nextDay(accessEnds), '00:00').toISOString();
}

const roleWord = (role: string) => (role === 'editor' ? 'Editor' : 'Viewer');

export function createHouseholdRepository(db: Kysely<DB>) {
  async function givenGrants(userId: string): Promise<Grant[]> {
    const rows = await ownedRows(db, 'access_grants', userId)
      .select(GRANT_COLUMNS)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toGrant);
  }

  /** The persons shared with the user, named: their members' rows and their owners' names. */
  async function receivedPersons(access: Access): Promise<SharedPerson[]> {
    if (access.shares.length === 0) return [];
    const memberShares = access.shares.filter((share) => share.memberId !== null);
    const memberScope: Scope = memberShares.map((share) => ({
      kind: 'member',
      owner: share.ownerId,
      member: share.memberId as string,
    }));
    const [members, owners] = await Promise.all([
      memberScope.length
        ? db
            .selectFrom('family_members')
            .select(['id', 'name', 'color', 'date_of_birth'])
            .where(inScope('family_members', memberScope, scopeValues(memberScope)))
            .execute()
        : [],
      // Only the owners' names: what 'Shared by {name}' needs.
      db
        .selectFrom('user')
        .select(['id', 'name'])
        .where('id', 'in', [...new Set(access.shares.map((share) => share.ownerId))])
        .execute(),
    ]);
    const memberById = new Map(members.map((member) => [member.id, member]));
    const ownerName = new Map(owners.map((owner) => [owner.id, owner.name]));
    return access.shares.flatMap((share): SharedPerson[] => {
      const member = share.memberId === null ? undefined : memberById.get(share.memberId);
      const owner = ownerName.get(share.ownerId) ?? '';
      if (share.memberId !== null && !member) return [];
      return [
        {
          grantId: share.grantId,
          personId: share.personId,
          ownerId: share.ownerId,
          familyMemberId: share.memberId,
          name: member?.name ?? owner,
          color: member?.color ?? DEFAULT_MEMBER_COLOR,
          dateOfBirth: member?.date_of_birth ?? null,
          ownerName: owner,
          role: share.role,
          allowExport: share.allowExport,
          accessEnds: share.accessEnds,
        },
      ];
    });
  }

  /**
   * The share links a grantee made of the person while the grant allowed it: revoked when
   * access ends or no longer allows sharing.
   */
  async function revokeGranteeLinks(trx: Kysely<DB>, email: string, personId: string) {
    const grantee = await trx
      .selectFrom('user')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirst();
    if (grantee) await createShareLinkStore(trx).revokePerson(grantee.id, personId);
  }

  const repository = {
    async household(access: Access): Promise<Household> {
      const [given, received] = await Promise.all([
        givenGrants(access.userId),
        receivedPersons(access),
      ]);
      return { given, received };
    },

    /**
     * Shares a person with an email, or changes the grant that email already has for that
     * person. An email with no account yet is answered the same: the grant waits for it.
     */
    async grant(userId: string, values: GrantValues, headers: Headers): Promise<Grant> {
      const person = await findPerson(db, userId, values.personId);
      if (!person) throw badRequest(PERSON_UNKNOWN_MESSAGE, 'personId');
      const email = values.email.toLowerCase();
      const own = await ownedRows(db, 'user', userId).select('email').executeTakeFirst();
      if (own?.email.toLowerCase() === email) throw badRequest(SELF_SHARE_MESSAGE, 'email');
      const endsAt = values.accessEnds
        ? endOfAccess(values.accessEnds, values.timeZone ?? 'UTC')
        : null;
      if (endsAt !== null && endsAt <= new Date().toISOString()) {
        throw badRequest(PAST_END_MESSAGE, 'accessEnds');
      }
      const now = nowTimestamp();
      const settings = {
        role: values.role,
        allow_export: values.allowExport ? 1 : 0,
        access_ends: values.accessEnds,
        ends_at: endsAt,
        updated_at: now,
      };
      const detail = `${email} · ${person.name} · ${roleWord(values.role)}`;
      return db.transaction().execute(async (trx) => {
        const changed = await updateOwned(trx, 'access_grants', userId)
          .set(settings)
          .where('person_id', '=', person.id)
          .where('grantee_email', '=', email)
          .returning(GRANT_COLUMNS)
          .executeTakeFirst();
        const row =
          changed ??
          (await trx
            .insertInto('access_grants')
            .values(
              ownedRow(userId, {
                id: newId(),
                person_id: person.id,
                family_member_id: person.family_member_id,
                grantee_email: email,
                ...settings,
                created_at: now,
              }),
            )
            .returning(GRANT_COLUMNS)
            .executeTakeFirstOrThrow());
        if (!values.allowExport) await revokeGranteeLinks(trx, email, person.id);
        await recordAuditEvent(trx, {
          event: changed ? 'access_changed' : 'access_granted',
          userId,
          detail,
          ...requestSource(headers),
        });
        return toGrant(row);
      });
    },

    /** Ends a grant at once; false when the user has no such grant. */
    async remove(userId: string, grantId: string, headers: Headers): Promise<boolean> {
      if (!isId(grantId)) return false;
      return db.transaction().execute(async (trx) => {
        const removed = await deleteOwned(trx, 'access_grants', userId)
          .where('id', '=', grantId)
          .returning(['grantee_email', 'person_id'])
          .executeTakeFirst();
        if (!removed) return false;
        await revokeGranteeLinks(trx, removed.grantee_email, removed.person_id);
        const person = await findPerson(trx, userId, removed.person_id);
        await recordAuditEvent(trx, {
          event: 'access_removed',
          userId,
          detail: `${removed.grantee_email} · ${person?.name ?? ''}`,
          ...requestSource(headers),
        });
        return true;
      });
    },

    /**
     * Records, in each owner's security activity, the first time today the user read (or
     * wrote) a person shared with them. The day's mark is claimed with one conditional
     * update, so one event is written per grant and day however many instances race.
     */
    async noteUse(access: Access, shares: readonly Share[], kind: 'read' | 'write'): Promise<void> {
      const today = new Date().toISOString().slice(0, 10);
      const column = kind === 'read' ? 'last_read_on' : 'last_write_on';
      for (const share of shares) {
        if ((kind === 'read' ? share.lastReadOn : share.lastWriteOn) === today) continue;
        await db.transaction().execute(async (trx) => {
          const claimed = await updateOwned(trx, 'access_grants', share.ownerId)
            .set({ [column]: today })
            .where('id', '=', share.grantId)
            .where((eb) => eb.or([eb(column, 'is', null), eb(column, '<>', today)]))
            .returning(['grantee_email', 'person_id'])
            .executeTakeFirst();
          if (!claimed) return;
          const person = await findPerson(trx, share.ownerId, claimed.person_id);
          await recordAuditEvent(trx, {
            event: kind === 'read' ? 'shared_records_read' : 'shared_records_changed',
            userId: share.ownerId,
            // The grantee's address stays theirs: the owner learns who and when.
            detail: `${claimed.grantee_email} · ${person?.name ?? ''}`,
          });
        });
      }
    },

    /** Notes a use of one person (an export, a dose), if the person is shared with the user. */
    async notePersonUse(access: Access, personId: string, kind: 'read' | 'write'): Promise<void> {
      const share = shareOfPerson(access, personId);
      if (share) await repository.noteUse(access, [share], kind);
    },
  };
  return repository;
}

export type HouseholdRepository = ReturnType<typeof createHouseholdRepository>;
