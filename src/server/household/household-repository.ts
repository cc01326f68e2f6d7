/**
 * The household's grants: an owner shares one person with another account's email, as a
 * viewer or an editor, until an optional last day. A grant gives nothing until the account
 * with that email enters the grant's one-time acceptance code, which the owner is shown
 * (or, once the server sends mail, which is sent to the email): from then on it is that
 * account's. The owner's security activity records every grant, acceptance, change and
 * removal, and the first read and the first write of each day a grantee made of that
 * person's records.
 */
import { createHash, randomInt } from 'node:crypto';
import type { ExpressionBuilder, Kysely } from 'kysely';
import { ApiError } from '../../shared/api-error';
import type {
  GivenGrant,
  Grant,
  GrantValues,
  Household,
  SharedPerson,
} from '../../shared/household';
import {
  ACCEPTANCE_CODE_ALPHABET,
  ACCEPTANCE_CODE_LENGTH,
  formatAcceptanceCode,
  PAST_END_MESSAGE,
  SELF_SHARE_MESSAGE,
  WRONG_ACCEPTANCE_CODE_MESSAGE,
} from '../../shared/household';
import { DEFAULT_MEMBER_COLOR } from '../../shared/constants';
import { toSex } from '../../shared/family-members';
import {
  inScope,
  scopeValues,
  shareOfPerson,
  deleteOwned,
  ownedRow,
  ownedRows,
  updateOwned,
  type Access,
  type Scope,
  type Share,
} from '../access/scope';
import { recordAuditEvent, requestSource } from '../audit/audit-log';
import type { DB } from '../db/schema';
import { CLIENT_IP_HEADER } from '../http/client-ip';
import { badRequest } from '../http/errors';
import { isId, newId, nowTimestamp } from '../ids';
import { TOO_MANY_ATTEMPTS_MESSAGE, type AttemptLimits } from '../limits/attempt-limits';
import { findPerson, type Person } from '../persons/person-records';
import { instantOf } from '../reminders/time-zones';
import { createShareLinkStore } from '../share-links/share-link-store';
import { key } from '../../shared/i18n/translate';

export const PERSON_UNKNOWN_MESSAGE = key('Person must be you or one of your family members');

const GRANT_COLUMNS = [
  'id',
  'person_id',
  'grantee_email',
  'grantee_id',
  'role',
  'allow_export',
  'access_ends',
  'created_at',
  'missed_dose_alert_minutes',
] as const;

type GrantRow = Pick<DB['access_grants'], (typeof GRANT_COLUMNS)[number]>;

const toGrant = (row: GrantRow, acceptedBy: string | null): Grant => ({
  id: row.id,
  personId: row.person_id,
  email: row.grantee_email,
  role: row.role === 'editor' ? 'editor' : 'viewer',
  allowExport: Boolean(row.allow_export),
  accessEnds: row.access_ends,
  alertAfterMinutes: row.missed_dose_alert_minutes,
  createdAt: row.created_at,
  status: row.grantee_id === null ? 'pending' : 'accepted',
  acceptedBy: row.grantee_id === null ? null : acceptedBy,
});

/** A new one-time acceptance code: ten characters without look-alikes, drawn uniformly. */
function newAcceptanceCode(): string {
  let code = '';
  for (let index = 0; index < ACCEPTANCE_CODE_LENGTH; index += 1) {
    code += ACCEPTANCE_CODE_ALPHABET[randomInt(ACCEPTANCE_CODE_ALPHABET.length)];
  }
  return code;
}

/** What is kept of a code (normalized as typed): its SHA-256. */
const hashAcceptanceCode = (code: string): string =>
  createHash('sha256').update(code).digest('base64url');

/** What 'Grant Access' is told of the code of a new or still pending grant. */
export interface AcceptanceInvitation {
  email: string;
  /** The code as shown: 'ABCDE-FGHJK'. */
  code: string;
  personName: string;
  ownerId: string;
}

/**
 * How the code reaches the grantee. Until the server sends mail the owner is shown it and
 * passes it on ('shown'); a mail sender returns 'sent', and the owner is then not shown it.
 */
export type AcceptanceCodeDelivery = (
  invitation: AcceptanceInvitation,
) => Promise<'shown' | 'sent'>;

const showToOwner: AcceptanceCodeDelivery = async () => 'shown';

/** The attempt-limit action (and audit detail) of entering an acceptance code. */
export const GRANT_ACCEPTANCE = 'grant-acceptance';

export interface HouseholdOptions {
  /** Limits on entering acceptance codes, per account and per address. */
  limits?: AttemptLimits;
  deliverAcceptanceCode?: AcceptanceCodeDelivery;
}

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

/** Kysely's builder for the conditions on one grant row. */
type GrantConditions = ExpressionBuilder<DB, 'access_grants'>;

/** A grant that has not ended: no last day, or one whose end is still to come. */
const notEnded = (eb: GrantConditions) =>
  eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', new Date().toISOString())]);

// What is shared with whom.

async function givenGrants(db: Kysely<DB>, userId: string): Promise<Grant[]> {
  const rows = await ownedRows(db, 'access_grants', userId, 'g')
    .leftJoin('user as grantee', 'grantee.id', 'g.grantee_id')
    .select(GRANT_COLUMNS.map((column) => `g.${column}` as const))
    .select('grantee.name as grantee_name')
    .orderBy('g.created_at')
    .orderBy('g.id')
    .execute();
  return rows.map((row) => toGrant(row, row.grantee_name));
}

/** How many grants to the user's own email wait for their code, and have not ended. */
async function countPendingForYou(db: Kysely<DB>, userId: string): Promise<number> {
  const pending = await db
    .selectFrom('access_grants')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('access_grants.grantee_email', 'in', ownedRows(db, 'user', userId).select('email'))
    .where('grantee_id', 'is', null)
    .where(notEnded)
    .executeTakeFirst();
  return Number(pending?.count ?? 0);
}

/** The persons shared with the user, named: their members' rows and their owners' names. */
async function receivedPersons(db: Kysely<DB>, access: Access): Promise<SharedPerson[]> {
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
          .select(['id', 'name', 'color', 'date_of_birth', 'sex'])
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
        sex: toSex(member?.sex),
        ownerName: owner,
        role: share.role,
        allowExport: share.allowExport,
        accessEnds: share.accessEnds,
      },
    ];
  });
}

async function household(db: Kysely<DB>, access: Access): Promise<Household> {
  const [given, received, pendingForYou] = await Promise.all([
    givenGrants(db, access.userId),
    receivedPersons(db, access),
    countPendingForYou(db, access.userId),
  ]);
  return { given, received, pendingForYou };
}

/**
 * The share links a grantee made of the person while the grant allowed it: revoked when
 * access ends or no longer allows sharing. A pending grant's email has made none.
 */
async function revokeGranteeLinks(trx: Kysely<DB>, granteeId: string | null, personId: string) {
  if (granteeId !== null) await createShareLinkStore(trx).revokePerson(granteeId, personId);
}

// Grants and their codes.

/** A grant as asked for and checked: the owner's person, the email, the moment it ends. */
interface GrantRequest {
  userId: string;
  person: Person;
  email: string;
  values: GrantValues;
  endsAt: string | null;
}

/** Checks what 'Grant Access' asks for: the owner's own person, another email, a later end. */
async function checkGrant(
  db: Kysely<DB>,
  userId: string,
  values: GrantValues,
): Promise<GrantRequest> {
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
  return { userId, person, email, values, endsAt };
}

/** The grant's columns that 'Grant Access' sets, on a new grant or a changed one. */
function grantSettings({ values, endsAt }: GrantRequest, now: string) {
  return {
    role: values.role,
    allow_export: values.allowExport ? 1 : 0,
    access_ends: values.accessEnds,
    ends_at: endsAt,
    missed_dose_alert_minutes: values.missedDoseAlert ? values.alertAfterMinutes : null,
    updated_at: now,
  };
}

/** The grant as the owner's security activity tells it. */
function grantDetail({ email, person, values }: GrantRequest): string {
  const alert = values.missedDoseAlert ? ` · Alert after ${values.alertAfterMinutes} minutes` : '';
  return `${email} · ${person.name} · ${roleWord(values.role)}${alert}`;
}

/**
 * Writes the grant: changes the one the email already has for the person (a pending one
 * gets the new code) or inserts a new one. Returns the row, and whether it was a change.
 */
async function saveGrant(trx: Kysely<DB>, request: GrantRequest, codeHash: string, now: string) {
  const { userId, person, email } = request;
  const settings = grantSettings(request, now);
  const changed = await updateOwned(trx, 'access_grants', userId)
    .set(settings)
    .where('person_id', '=', person.id)
    .where('grantee_email', '=', email)
    .returning(GRANT_COLUMNS)
    .executeTakeFirst();
  if (changed && changed.grantee_id === null) {
    await updateOwned(trx, 'access_grants', userId)
      .set({ acceptance_code_hash: codeHash })
      .where('id', '=', changed.id)
      .execute();
  }
  const saved =
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
          acceptance_code_hash: codeHash,
          created_at: now,
        }),
      )
      .returning(GRANT_COLUMNS)
      .executeTakeFirstOrThrow());
  return { saved, changed: changed !== undefined };
}

/** The name of the account that accepted a grant; null while it is pending. */
async function granteeName(trx: Kysely<DB>, granteeId: string | null): Promise<string | null> {
  const grantee =
    granteeId === null
      ? undefined
      : await trx.selectFrom('user').select('name').where('id', '=', granteeId).executeTakeFirst();
  return grantee?.name ?? null;
}

/**
 * Shares a person with an email, or changes the grant that email already has for that
 * person. An email with no account yet is answered the same: the grant waits for it. A
 * new grant, or one still pending, gets a new one-time code (an earlier one stops
 * working), which the answer carries unless it was sent.
 */
async function grantAccess(
  db: Kysely<DB>,
  deliver: AcceptanceCodeDelivery,
  userId: string,
  values: GrantValues,
  headers: Headers,
): Promise<GivenGrant> {
  const request = await checkGrant(db, userId, values);
  const now = nowTimestamp();
  const code = newAcceptanceCode();
  const codeHash = hashAcceptanceCode(code);
  const { row, acceptedBy } = await db.transaction().execute(async (trx) => {
    const { saved, changed } = await saveGrant(trx, request, codeHash, now);
    if (!values.allowExport) await revokeGranteeLinks(trx, saved.grantee_id, request.person.id);
    await recordAuditEvent(trx, {
      event: changed ? 'access_changed' : 'access_granted',
      userId,
      detail: grantDetail(request),
      ...requestSource(headers),
    });
    return { row: saved, acceptedBy: await granteeName(trx, saved.grantee_id) };
  });
  const shown =
    row.grantee_id === null &&
    (await deliver({
      email: request.email,
      code: formatAcceptanceCode(code),
      personName: request.person.name,
      ownerId: userId,
    })) === 'shown';
  return {
    ...toGrant(row, acceptedBy),
    acceptanceCode: shown ? formatAcceptanceCode(code) : null,
  };
}

// Acceptance, with its guess limit.

/** Refuses an attempt at a code with 403 or 429, written to the user's security activity. */
async function refuseAcceptance(db: Kysely<DB>, userId: string, headers: Headers, error: ApiError) {
  await recordAuditEvent(db, {
    event: error.status === 429 ? 'too_many_attempts' : 'verification_failed',
    userId,
    detail: GRANT_ACCEPTANCE,
    ...requestSource(headers),
  });
  return error;
}

/** Counts one attempt at a code, per account and per address; refuses it over either limit. */
async function limitAcceptance(
  db: Kysely<DB>,
  limits: AttemptLimits,
  userId: string,
  headers: Headers,
): Promise<void> {
  const address = headers.get(CLIENT_IP_HEADER) ?? 'unknown';
  const decisions = await Promise.all([
    limits.consume({ scope: 'account', subject: userId, action: GRANT_ACCEPTANCE }),
    limits.consume({ scope: 'address', subject: address, action: GRANT_ACCEPTANCE }),
  ]);
  if (decisions.some((decision) => !decision.allowed)) {
    throw await refuseAcceptance(db, userId, headers, new ApiError(429, TOO_MANY_ATTEMPTS_MESSAGE));
  }
}

/**
 * Makes the pending, unended grant to the user's own email with that code theirs, using
 * the code up, and records it in both accounts' security activity. False when none is.
 */
async function claimGrant(
  trx: Kysely<DB>,
  userId: string,
  code: string,
  headers: Headers,
): Promise<boolean> {
  const row = await trx
    .updateTable('access_grants')
    .set({ grantee_id: userId, accepted_at: nowTimestamp(), acceptance_code_hash: null })
    .where('access_grants.grantee_email', 'in', ownedRows(trx, 'user', userId).select('email'))
    .where('acceptance_code_hash', '=', hashAcceptanceCode(code))
    .where('grantee_id', 'is', null)
    .where(notEnded)
    .returning(['user_id', 'person_id', 'grantee_email'])
    .executeTakeFirst();
  if (!row) return false;
  const person = await findPerson(trx, row.user_id, row.person_id);
  await recordAuditEvent(trx, {
    event: 'access_accepted',
    userId: row.user_id,
    detail: `${row.grantee_email} · ${person?.name ?? ''}`,
  });
  await recordAuditEvent(trx, {
    event: 'access_accepted',
    userId,
    detail: person?.name ?? '',
    ...requestSource(headers),
  });
  return true;
}

/**
 * The account enters a grant's acceptance code: the pending grant to its own email with
 * that code (and not ended) becomes this account's, and the code is used up. Limited
 * per account and per address; each refusal is in the account's security activity, an
 * acceptance in the owner's.
 */
async function acceptGrant(
  db: Kysely<DB>,
  limits: AttemptLimits | undefined,
  userId: string,
  code: string,
  headers: Headers,
): Promise<void> {
  if (limits) await limitAcceptance(db, limits, userId, headers);
  const accepted = await db.transaction().execute((trx) => claimGrant(trx, userId, code, headers));
  if (!accepted) {
    throw await refuseAcceptance(
      db,
      userId,
      headers,
      new ApiError(403, WRONG_ACCEPTANCE_CODE_MESSAGE, 'code'),
    );
  }
}

/** Ends a grant at once; false when the user has no such grant. */
async function removeGrant(
  db: Kysely<DB>,
  userId: string,
  grantId: string,
  headers: Headers,
): Promise<boolean> {
  if (!isId(grantId)) return false;
  return db.transaction().execute(async (trx) => {
    const removed = await deleteOwned(trx, 'access_grants', userId)
      .where('id', '=', grantId)
      .returning(['grantee_email', 'grantee_id', 'person_id'])
      .executeTakeFirst();
    if (!removed) return false;
    await revokeGranteeLinks(trx, removed.grantee_id, removed.person_id);
    const person = await findPerson(trx, userId, removed.person_id);
    await recordAuditEvent(trx, {
      event: 'access_removed',
      userId,
      detail: `${removed.grantee_email} · ${person?.name ?? ''}`,
      ...requestSource(headers),
    });
    return true;
  });
}

// A grantee's use, in the owner's security activity.

/**
 * Claims the grant's mark for today with one conditional update, and on success records
 * the use in the owner's security activity: one event per grant and day however many
 * instances race.
 */
async function noteShareUse(
  db: Kysely<DB>,
  share: Share,
  kind: 'read' | 'write',
  today: string,
): Promise<void> {
  const column = kind === 'read' ? 'last_read_on' : 'last_write_on';
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

/**
 * Records, in each owner's security activity, the first time today the user read (or
 * wrote) a person shared with them.
 */
async function noteUse(db: Kysely<DB>, shares: readonly Share[], kind: 'read' | 'write') {
  const today = new Date().toISOString().slice(0, 10);
  for (const share of shares) {
    if ((kind === 'read' ? share.lastReadOn : share.lastWriteOn) === today) continue;
    await noteShareUse(db, share, kind, today);
  }
}

export function createHouseholdRepository(db: Kysely<DB>, options: HouseholdOptions = {}) {
  const deliver = options.deliverAcceptanceCode ?? showToOwner;
  const repository = {
    household: (access: Access): Promise<Household> => household(db, access),
    grant: (userId: string, values: GrantValues, headers: Headers): Promise<GivenGrant> =>
      grantAccess(db, deliver, userId, values, headers),
    accept: (userId: string, code: string, headers: Headers): Promise<void> =>
      acceptGrant(db, options.limits, userId, code, headers),
    remove: (userId: string, grantId: string, headers: Headers): Promise<boolean> =>
      removeGrant(db, userId, grantId, headers),
    /** Notes the first read (or write) today of each person shared with the user. */
    noteUse: (access: Access, shares: readonly Share[], kind: 'read' | 'write'): Promise<void> =>
      noteUse(db, shares, kind),
    /** Notes a use of one person (an export, a dose), if the person is shared with the user. */
    async notePersonUse(access: Access, personId: string, kind: 'read' | 'write'): Promise<void> {
      const share = shareOfPerson(access, personId);
      if (share) await repository.noteUse(access, [share], kind);
    },
  };
  return repository;
}

export type HouseholdRepository = ReturnType<typeof createHouseholdRepository>;
