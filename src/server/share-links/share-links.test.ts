/**
 * Share links over the API (SMART Health Links): the owner's browser encrypts, the server
 * keeps ciphertext it cannot read, a reader without an account opens the link with its
 * passcode, the owner sees the openings and revokes.
 */
import { randomBytes } from 'node:crypto';
import { CompactEncrypt, compactDecrypt } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Bundle, Patient } from '@medplum/fhirtypes';
import type { GivenGrant } from '../../shared/household';
import {
  decodeShlink,
  NO_LONGER_AVAILABLE,
  SHARE_LINK_PASSCODE_ATTEMPTS,
  viewerUrl,
  type CreatedShareLink,
  type ShareLinkAccess,
  type ShareLinkSummary,
  type ShlinkPayload,
} from '../../shared/share-links';
import { addOneOfEveryType } from '../test/family-records';
import { acceptGrant } from '../test/grant-acceptance';
import {
  createTestServer,
  signedUpClient,
  TEST_ORIGIN,
  useTestServer,
  type TestClient,
} from '../test/harness';
import { ACCESS_ENDED_DETAIL } from './maker-access';
import { SHARE_LINK_REQUEST_LIMIT } from './share-link-routes';
import { createShareLinkStore } from './share-link-store';

const server = useTestServer();
const OTHER_ORIGIN = 'https://clinic.example';

async function owner(): Promise<{ client: TestClient; leoId: string }> {
  const { client } = await signedUpClient(server, 'Maria Garcia');
  const leo = await client.post<{ id: string }>('/api/family-members', {
    name: 'Leo Garcia',
    date_of_birth: '2017-04-12',
    color: '#3b82f6',
  });
  await addOneOfEveryType(client, leo.body.id);
  return { client, leoId: leo.body.id };
}

/** What the owner's browser does: fetch the bundle, encrypt it, upload the JWE, make the link. */
async function createLink(
  client: TestClient,
  personId: string,
  options: { passcode?: string; days?: 1 | 7 | 30; types?: string } = {},
) {
  const bundle = await client.get<Bundle>(
    `/api/fhir/Patient/${personId}/$everything${options.types ? `?types=${options.types}` : ''}`,
  );
  expect(bundle.status).toBe(200);
  const key = randomBytes(32);
  const jwe = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(bundle.body)))
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', cty: 'application/fhir+json' })
    .encrypt(key);
  const created = await client.post<CreatedShareLink>('/api/share-links', {
    person_id: personId,
    expires_in_days: options.days ?? 7,
    passcode: options.passcode,
    label: 'Leo Garcia',
    jwe,
  });
  expect(created.status).toBe(201);
  const { url, exp, flag, label } = created.body;
  const payload: ShlinkPayload = {
    url,
    key: key.toString('base64url'),
    exp,
    ...(flag ? { flag } : {}),
    label,
    v: 1,
  };
  return { id: created.body.id, payload, link: viewerUrl(TEST_ORIGIN, payload), jwe, key };
}

/** A reader with no account, on another site. */
const reader = () => server.client();

const manifest = (payload: ShlinkPayload, body: Record<string, unknown>) =>
  reader().request<{
    files?: { contentType: string; location: string }[];
    message?: string;
    remainingAttempts?: number;
  }>('POST', new URL(payload.url).pathname, body, { origin: OTHER_ORIGIN });

const file = (location: string) =>
  reader().request<string>('GET', new URL(location).pathname, undefined, { origin: OTHER_ORIGIN });

async function decrypt(jwe: string, key: string): Promise<Bundle> {
  const { plaintext } = await compactDecrypt(jwe, Buffer.from(key, 'base64url'));
  return JSON.parse(new TextDecoder().decode(plaintext)) as Bundle;
}

describe('share links', () => {
  it('makes a shlink:/ payload that follows the SMART Health Links rules', async () => {
    const { client, leoId } = await owner();
    const before = Math.floor(Date.now() / 1000);
    const { link } = await createLink(client, leoId, { passcode: '2468' });
    expect(link.startsWith(`${TEST_ORIGIN}/shl#shlink:/`)).toBe(true);
    const encoded = link.slice(link.indexOf('#') + 1);
    expect(encoded).toMatch(/^shlink:\/[A-Za-z0-9_-]+$/);
    const payload = decodeShlink(link);
    expect(payload).not.toBeNull();
    const { url, key, exp, flag, label, v } = payload!;
    // key: 43 characters of base64url, 32 bytes.
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(key, 'base64url')).toHaveLength(32);
    // url: at most 128 characters; the manifest id in it carries 256 random bits.
    expect(url.length).toBeLessThanOrEqual(128);
    const manifestId = url.split('/').at(-1)!;
    expect(Buffer.from(manifestId, 'base64url')).toHaveLength(32);
    // exp: seconds since the epoch, seven days ahead by default.
    expect(Number.isInteger(exp)).toBe(true);
    expect(exp! - before).toBeGreaterThanOrEqual(7 * 86400 - 5);
    expect(exp! - before).toBeLessThanOrEqual(7 * 86400 + 5);
    // flag: only the spec's letters, in order; P with a passcode, never L (a snapshot).
    expect(flag).toBe('P');
    expect(label!.length).toBeLessThanOrEqual(80);
    expect(v).toBe(1);
    const noPasscode = decodeShlink((await createLink(client, leoId, { days: 1 })).link)!;
    expect(noPasscode.flag).toBeUndefined();
    expect(noPasscode.exp! - before).toBeLessThanOrEqual(86400 + 5);
  });

  it('opens for a reader with no account: wrong passcode, then right; the file decrypts', async () => {
    const { client, leoId } = await owner();
    const { payload } = await createLink(client, leoId, { passcode: '2468' });

    const missing = await manifest(payload, { recipient: 'Dr. Chen' });
    expect(missing.status).toBe(401);

    const wrong = await manifest(payload, { recipient: 'Dr. Chen', passcode: '1111' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.remainingAttempts).toBe(SHARE_LINK_PASSCODE_ATTEMPTS - 1);
    expect(wrong.headers.get('access-control-allow-origin')).toBe('*');

    const right = await manifest(payload, { recipient: 'Dr. Chen', passcode: '2468' });
    expect(right.status).toBe(200);
    expect(right.headers.get('access-control-allow-origin')).toBe('*');
    expect(right.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const [entry] = right.body.files!;
    expect(entry!.contentType).toBe('application/fhir+json');

    const content = await file(entry!.location);
    expect(content.status).toBe(200);
    expect(content.headers.get('content-type')).toBe('application/jose');
    expect(content.headers.get('access-control-allow-origin')).toBe('*');
    const bundle = await decrypt(content.body, payload.key);
    const patient = bundle.entry?.find((e) => e.resource?.resourceType === 'Patient')
      ?.resource as Patient;
    expect(patient.name?.[0]?.text ?? patient.name?.[0]?.family).toContain('Garcia');

    // The passcode that worked gave its attempt back.
    const again = await manifest(payload, { recipient: 'Dr. Chen', passcode: '0000' });
    expect(again.body.remainingAttempts).toBe(SHARE_LINK_PASSCODE_ATTEMPTS - 2);
  });

  it('answers a preflight from any origin on the manifest and file routes only', async () => {
    const { client, leoId } = await owner();
    const { payload } = await createLink(client, leoId);
    const preflight = await reader().request('OPTIONS', new URL(payload.url).pathname, undefined, {
      origin: OTHER_ORIGIN,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    const list = await client.request('GET', '/api/share-links', undefined, {
      origin: OTHER_ORIGIN,
    });
    expect(list.headers.get('access-control-allow-origin')).toBeNull();
    // The owner's routes still refuse another origin's writes.
    const forged = await client.request(
      'DELETE',
      `/api/share-links/00000000-0000-7000-8000-000000000000`,
      undefined,
      { origin: OTHER_ORIGIN },
    );
    expect(forged.status).toBe(403);
  });

  it('keeps rows that cannot be decrypted without the fragment', async () => {
    const { client, leoId } = await owner();
    const { id, jwe, key } = await createLink(client, leoId, { passcode: '2468' });
    const rows = await server.db
      .selectFrom('share_links')
      .selectAll()
      .where('id', '=', id)
      .execute();
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows);
    const row = rows[0]!;
    expect(row.jwe).toBe(jwe);
    // Nothing stored holds the key, the passcode, or the records in the clear.
    expect(stored).not.toContain(key.toString('base64url'));
    expect(stored).not.toContain(key.toString('hex'));
    expect(stored).not.toContain('2468');
    expect(row.jwe).not.toMatch(/Patient|Garcia|Penicillin|Bundle/);
    expect(row.passcode_hash).toMatch(/^\$argon2id\$/);
    // The protected header is all that reads: alg dir, A256GCM.
    const header = JSON.parse(Buffer.from(row.jwe!.split('.')[0]!, 'base64url').toString());
    expect(header).toMatchObject({ alg: 'dir', enc: 'A256GCM' });
    // No key but the fragment's opens it.
    for (let i = 0; i < 5; i += 1) {
      await expect(compactDecrypt(row.jwe!, randomBytes(32))).rejects.toThrow();
    }
    await expect(compactDecrypt(row.jwe!, key)).resolves.toBeTruthy();
  });

  it('locks after the lifetime allowance of wrong passcodes, counted atomically', async () => {
    const { client, leoId } = await owner();
    const { payload } = await createLink(client, leoId, { passcode: '2468' });
    const guesses = await Promise.all(
      Array.from({ length: SHARE_LINK_PASSCODE_ATTEMPTS + 5 }, (_, i) =>
        manifest(payload, { recipient: `Guesser ${i}`, passcode: `x${i}` }),
      ),
    );
    const statuses = guesses.map((g) => g.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(SHARE_LINK_PASSCODE_ATTEMPTS);
    expect(statuses.filter((s) => s === 404)).toHaveLength(5);
    const right = await manifest(payload, { recipient: 'Dr. Chen', passcode: '2468' });
    expect(right.status).toBe(404);
    expect(right.body.message).toBe('This link is no longer available');
    const [summary] = (await client.get<ShareLinkSummary[]>('/api/share-links')).body;
    expect(summary!.locked).toBe(true);
  });

  it('lists, logs each opening, revokes at once, and keeps other users out', async () => {
    const { client, leoId } = await owner();
    const { id, payload } = await createLink(client, leoId, { passcode: '2468' });
    await manifest(payload, { recipient: 'Dr. Chen', passcode: 'nope' });
    const opened = await manifest(payload, { recipient: 'Dr. Chen', passcode: '2468' });
    const location = opened.body.files![0]!.location;

    const list = await client.get<ShareLinkSummary[]>('/api/share-links');
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({
      id,
      person_id: leoId,
      person_name: 'Leo Garcia',
      opened_count: 1,
      has_passcode: true,
      revoked_at: null,
    });

    const { client: stranger } = await signedUpClient(server, 'Stranger');
    expect((await stranger.get<unknown[]>('/api/share-links')).body).toEqual([]);
    expect((await stranger.get(`/api/share-links/${id}/accesses`)).status).toBe(404);
    expect((await stranger.delete(`/api/share-links/${id}`)).status).toBe(404);
    expect((await manifest(payload, { recipient: 'x', passcode: '2468' })).status).toBe(200);

    expect((await client.delete(`/api/share-links/${id}`)).status).toBe(204);
    const after = await manifest(payload, { recipient: 'Dr. Chen', passcode: '2468' });
    expect(after.status).toBe(404);
    expect(after.body.message).toBe('This link is no longer available');
    expect((await file(location)).status).toBe(404);
    const row = await server.db
      .selectFrom('share_links')
      .select(['jwe', 'revoked_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.jwe).toBeNull();
    expect(row.revoked_at).not.toBeNull();

    const log = await client.get<ShareLinkAccess[]>(`/api/share-links/${id}/accesses`);
    expect(log.body.map((a) => [a.recipient, a.outcome])).toEqual([
      ['Dr. Chen', 'refused'],
      ['x', 'opened'],
      ['Dr. Chen', 'opened'],
      ['Dr. Chen', 'wrong passcode'],
    ]);
  });

  it('hands out file addresses that stop working within the hour', async () => {
    const { client, leoId } = await owner();
    const { payload } = await createLink(client, leoId);
    const opened = await manifest(payload, { recipient: 'Dr. Chen' });
    const ticket = new URL(opened.body.files![0]!.location).pathname.split('/').at(-1)!;
    expect(Buffer.from(ticket, 'base64url')).toHaveLength(32);
    const row = await server.db
      .selectFrom('share_link_files')
      .select('expires_at')
      .where('ticket', '=', ticket)
      .executeTakeFirstOrThrow();
    const lifetime = Date.parse(row.expires_at) - Date.now();
    expect(lifetime).toBeGreaterThan(59 * 60 * 1000);
    expect(lifetime).toBeLessThanOrEqual(60 * 60 * 1000);
    await server.db
      .updateTable('share_link_files')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('ticket', '=', ticket)
      .execute();
    expect((await file(opened.body.files![0]!.location)).status).toBe(404);
    // A new manifest request gives a new address.
    const again = await manifest(payload, { recipient: 'Dr. Chen' });
    expect((await file(again.body.files![0]!.location)).status).toBe(200);
  });

  it('drops expired links from the list and deletes their ciphertext', async () => {
    const { client, leoId } = await owner();
    const { id, payload } = await createLink(client, leoId, { days: 1 });
    const opened = await manifest(payload, { recipient: 'Dr. Chen' });
    expect(opened.status).toBe(200);
    await server.db
      .updateTable('share_links')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', id)
      .execute();
    expect((await manifest(payload, { recipient: 'Dr. Chen' })).status).toBe(404);
    expect((await file(opened.body.files![0]!.location)).status).toBe(404);
    expect((await client.get<unknown[]>('/api/share-links')).body).toEqual([]);
    const deleted = await createShareLinkStore(server.db).pruneExpired(new Date(), true);
    expect(deleted).toBeGreaterThanOrEqual(1);
    const left = await server.db
      .selectFrom('share_links')
      .select('id')
      .where('id', '=', id)
      .execute();
    expect(left).toEqual([]);
  });

  it('takes a history larger than other requests may be', async () => {
    const { client, leoId } = await owner();
    const key = randomBytes(32);
    const big = JSON.stringify({ resourceType: 'Bundle', padding: 'x'.repeat(3 * 1024 * 1024) });
    const jwe = await new CompactEncrypt(new TextEncoder().encode(big))
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .encrypt(key);
    const created = await client.post('/api/share-links', {
      person_id: leoId,
      expires_in_days: 1,
      label: 'Leo Garcia',
      jwe,
    });
    expect(created.status).toBe(201);
    const otherwise = await client.post('/api/family-members', {
      name: 'x'.repeat(2 * 1024 * 1024),
    });
    expect(otherwise.status).toBe(413);
  });

  it("carries the person's vitals as vital-sign Observations when they are chosen", async () => {
    const { client, leoId } = await owner();
    const vitals = await client.get<Bundle>(`/api/fhir/Patient/${leoId}/$everything?types=vital`);
    expect(vitals.status).toBe(200);
    const observations = (vitals.body.entry ?? [])
      .map((e) => e.resource)
      .filter((r) => r?.resourceType !== 'Patient');
    // The sample entry: a weight and a blood pressure.
    expect(observations).toHaveLength(2);
    for (const o of observations) {
      expect(o).toMatchObject({
        resourceType: 'Observation',
        category: [{ coding: [{ code: 'vital-signs' }] }],
      });
    }
  });

  it('takes only some record types when asked, and refuses bad input', async () => {
    const { client, leoId } = await owner();
    const some = await client.get<Bundle>(`/api/fhir/Patient/${leoId}/$everything?types=allergy`);
    const types = new Set(some.body.entry?.map((e) => e.resource?.resourceType));
    expect(types).toEqual(new Set(['Patient', 'AllergyIntolerance']));
    expect((await client.get(`/api/fhir/Patient/${leoId}/$everything?types=nope`)).status).toBe(
      400,
    );
    const bad = await client.post<{ field?: string }>('/api/share-links', {
      person_id: leoId,
      expires_in_days: 3,
      label: 'Leo',
      jwe: 'a.b.c.d.e',
    });
    expect(bad.status).toBe(400);
    const nobody = await client.post('/api/share-links', {
      person_id: '00000000-0000-7000-8000-000000000000',
      expires_in_days: 7,
      label: 'Leo',
      jwe: 'a..c.d.e',
    });
    expect(nobody.status).toBe(404);
    expect((await reader().get('/api/share-links')).status).toBe(401);
  });
});

describe('share links a grantee made', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** The owner shares Leo with Grace, who may share and export him, and accepts. */
  async function sharedLeo(grant: Record<string, unknown> = {}) {
    const maria = await owner();
    const grace = await signedUpClient(server, 'Grace Kim');
    const given = await maria.client.post<GivenGrant>('/api/household/grants', {
      personId: maria.leoId,
      email: grace.email,
      role: 'viewer',
      allowExport: true,
      ...grant,
    });
    expect(given.status, JSON.stringify(given.body)).toBe(201);
    await acceptGrant(grace.client, given);
    const profile = await maria.client.get<{ email: string }>('/api/profile');
    return { maria: { ...maria, email: profile.body.email }, grace, grant: given.body };
  }

  const listOf = async (client: TestClient) =>
    (await client.get<ShareLinkSummary[]>('/api/share-links')).body;
  const activityOf = async (client: TestClient) =>
    (await client.get<{ event: string; detail: string }[]>('/api/security-activity')).body;

  it("answer as revoked once the grant's Access Ends passes, and say so in both lists", async () => {
    // Half an hour before the end of today, UTC; the clock stands still until moved.
    const today = new Date().toISOString().slice(0, 10);
    const midnight = Date.parse(`${today}T00:00:00Z`) + 86_400_000;
    vi.setSystemTime(midnight - 30 * 60_000);
    const { maria, grace } = await sharedLeo({ accessEnds: today, timeZone: 'UTC' });
    const byFile = await createLink(grace.client, maria.leoId);
    const byManifest = await createLink(grace.client, maria.leoId);
    const opened = await manifest(byFile.payload, { recipient: 'Dr. Chen' });
    expect(opened.status).toBe(200);
    const location = opened.body.files![0]!.location;
    expect((await file(location)).status).toBe(200);
    expect((await manifest(byManifest.payload, { recipient: 'Dr. Chen' })).status).toBe(200);

    // The clock passes midnight after the last day: no row changes, only the time.
    vi.setSystemTime(midnight + 1_000);
    // A file address handed out before the end, good for an hour, no longer reaches them...
    expect((await file(location)).status).toBe(404);
    // ...and the manifest answers as for a revoked link.
    const refused = await manifest(byManifest.payload, { recipient: 'Dr. Chen' });
    expect(refused.status).toBe(404);
    expect(refused.body.message).toBe(NO_LONGER_AVAILABLE);
    const rows = await server.db
      .selectFrom('share_links')
      .select(['jwe', 'revoked_at'])
      .where('id', 'in', [byFile.id, byManifest.id])
      .execute();
    // Revoked as the owner's revoking would: the ciphertext is gone.
    expect(rows.map((row) => [row.jwe === null, row.revoked_at !== null])).toEqual([
      [true, true],
      [true, true],
    ]);

    // Both lists say so, the owner's with who made them.
    for (const link of await listOf(grace.client)) expect(link.revoked_at).not.toBeNull();
    const mariaLinks = await listOf(maria.client);
    expect(mariaLinks.map((link) => [link.id, link.person_name, link.made_by])).toEqual([
      [byManifest.id, 'Leo Garcia', 'Grace Kim'],
      [byFile.id, 'Leo Garcia', 'Grace Kim'],
    ]);
    for (const link of mariaLinks) expect(link.revoked_at).not.toBeNull();
    const log = await maria.client.get<ShareLinkAccess[]>(
      `/api/share-links/${byManifest.id}/accesses`,
    );
    expect(log.body.map((access) => access.outcome)).toEqual(['refused', 'opened']);
    expect(await activityOf(grace.client)).toContainEqual(
      expect.objectContaining({
        event: 'share_link_revoked',
        detail: `Leo Garcia · ${ACCESS_ENDED_DETAIL}`,
      }),
    );
  });

  it('answer as revoked when the grant no longer allows sharing, whatever revoked it or not', async () => {
    const { maria, grace, grant } = await sharedLeo();
    const { payload } = await createLink(grace.client, maria.leoId);
    expect((await manifest(payload, { recipient: 'Dr. Chen' })).status).toBe(200);
    const allowExport = (allowed: 0 | 1) =>
      server.db
        .updateTable('access_grants')
        .set({ allow_export: allowed })
        .where('id', '=', grant.id)
        .execute();
    // The grant changes without the change's own revoking (a link made while it was saved).
    await allowExport(0);
    expect((await manifest(payload, { recipient: 'Dr. Chen' })).status).toBe(404);
    // Allowed again: a revoked link stays revoked.
    await allowExport(1);
    expect((await manifest(payload, { recipient: 'Dr. Chen' })).status).toBe(404);
    const made = await createLink(grace.client, maria.leoId);
    // Removed the same way: the next request finds no grant at all.
    await server.db.deleteFrom('access_grants').where('id', '=', grant.id).execute();
    expect((await manifest(made.payload, { recipient: 'Dr. Chen' })).status).toBe(404);
  });

  it("are the owner's to list, read the access log of and revoke, and no one else's", async () => {
    const { maria, grace } = await sharedLeo();
    const own = await createLink(maria.client, maria.leoId);
    const { id, payload } = await createLink(grace.client, maria.leoId);
    expect((await manifest(payload, { recipient: 'Dr. Chen' })).status).toBe(200);

    const listed = await listOf(maria.client);
    expect(listed.map((link) => [link.id, link.made_by])).toEqual([
      [id, 'Grace Kim'],
      [own.id, null],
    ]);
    expect(listed[0]).toMatchObject({
      person_name: 'Leo Garcia',
      opened_count: 1,
      revoked_at: null,
    });
    // The grantee sees theirs, not the owner's.
    expect((await listOf(grace.client)).map((link) => [link.id, link.made_by])).toEqual([
      [id, null],
    ]);
    expect((await grace.client.get(`/api/share-links/${own.id}/accesses`)).status).toBe(404);
    expect((await grace.client.delete(`/api/share-links/${own.id}`)).status).toBe(404);
    // A stranger, and an account shared another of the owner's persons, reach nothing.
    const stranger = await signedUpClient(server, 'Sam Stranger');
    const ana = await signedUpClient(server, 'Ana Other');
    await acceptGrant(
      ana.client,
      await maria.client.post<GivenGrant>('/api/household/grants', {
        personId: (await maria.client.get<{ id: string }>('/api/profile')).body.id,
        email: ana.email,
        role: 'editor',
        allowExport: true,
      }),
    );
    for (const other of [stranger.client, ana.client]) {
      expect(await listOf(other)).toEqual([]);
      expect((await other.get(`/api/share-links/${id}/accesses`)).status).toBe(404);
      expect((await other.delete(`/api/share-links/${id}`)).status).toBe(404);
    }

    const log = await maria.client.get<ShareLinkAccess[]>(`/api/share-links/${id}/accesses`);
    expect(log.body.map((access) => [access.recipient, access.outcome])).toEqual([
      ['Dr. Chen', 'opened'],
    ]);
    expect((await maria.client.delete(`/api/share-links/${id}`)).status).toBe(204);
    expect((await manifest(payload, { recipient: 'Dr. Chen' })).status).toBe(404);
    expect((await listOf(grace.client))[0]?.revoked_at).not.toBeNull();
    expect((await listOf(maria.client)).find((link) => link.id === own.id)?.revoked_at).toBeNull();
    expect(await activityOf(maria.client)).toContainEqual(
      expect.objectContaining({
        event: 'share_link_revoked',
        detail: `Leo Garcia · made by ${grace.email}`,
      }),
    );
    expect(await activityOf(grace.client)).toContainEqual(
      expect.objectContaining({
        event: 'share_link_revoked',
        detail: `Leo Garcia · by ${maria.email}`,
      }),
    );
  });
});

describe('share link rate limits', () => {
  it('refuses a reader past the per-address limit, with Retry-After', async () => {
    const limited = await createTestServer({ rateLimit: { max: 10, windowSeconds: 60 } });
    try {
      const owner = limited.client();
      await owner.signUp({ name: 'Maria Garcia' });
      const session = await owner.get<{ user: { id: string } }>('/api/auth/get-session');
      const { payload } = await createLink(owner, session.body.user.id);
      const path = new URL(payload.url).pathname;
      const statuses: number[] = [];
      let last;
      for (let i = 0; i <= SHARE_LINK_REQUEST_LIMIT.max; i += 1) {
        last = await limited
          .client()
          .request('POST', path, { recipient: 'Dr. Chen' }, { origin: OTHER_ORIGIN });
        statuses.push(last.status);
      }
      expect(statuses.slice(0, SHARE_LINK_REQUEST_LIMIT.max).every((s) => s === 200)).toBe(true);
      expect(last?.status).toBe(429);
      expect(Number(last?.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(last?.headers.get('access-control-allow-origin')).toBe('*');
    } finally {
      await limited.close();
    }
  });
});
