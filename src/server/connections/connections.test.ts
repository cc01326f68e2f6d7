/**
 * Patient portals over the API, against the tests' own SMART on FHIR server (authorization
 * by oidc-provider, a FHIR API that checks its tokens' scopes): Mia's portal connected
 * through the standalone flow, her records brought in with their source, a sync again
 * adding nothing, a new lab result arriving, an expired access token renewed, a revoked
 * refresh token asking to sign in again (and 'Reconnect'), the callback's checks (state,
 * its account, iss), each connection its owner's, the daily pass, and 'Disconnect'
 * revoking at the portal and keeping the records. On both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection, ConnectionsAnswer, ConnectStarted } from '../../shared/connections';
import type { ImportedFrom, ImportHistoryEntry } from '../../shared/imports';
import type { DocumentPage } from '../../shared/documents';
import { signedUpClient, useTestServer, type TestClient } from '../test/harness';
import { signInAtPortal } from '../test/portal-sign-in';
import { MIA_BIRTH_DATE, miaPortalRecords, newLabResult } from '../test/smart-portal-records';
import { startTestSmartServer, type TestSmartServer } from '../test/smart-server';
import type { SmartProvider } from './smart-providers';
import { START_NOT_FOUND } from './connection-routes';

const PORTAL = 'Riverside Health';
const SLOW_PORTAL = 'Lakeside Clinic';
const REDIRECT_URI = 'http://localhost:3000/api/connections/callback';

const providers: SmartProvider[] = [];
let portal: TestSmartServer;
let slowPortal: TestSmartServer;
beforeAll(async () => {
  portal = await startTestSmartServer({ redirectUris: [REDIRECT_URI] });
  portal.addPatient({ username: 'mia', resources: await miaPortalRecords() });
  slowPortal = await startTestSmartServer({ redirectUris: [REDIRECT_URI], permissionV2: false });
  slowPortal.addPatient({ username: 'mia', resources: await miaPortalRecords() });
  for (const [name, server] of [
    [PORTAL, portal],
    [SLOW_PORTAL, slowPortal],
  ] as const) {
    providers.push({
      name,
      fhirBaseUrl: server.fhirBaseUrl,
      clientId: server.clientId,
      clientSecret: null,
      scopes: null,
    });
  }
});
afterAll(async () => {
  await portal?.close();
  await slowPortal?.close();
});

const server = useTestServer({ smartProviders: providers, connectionsDueCheckMs: 200 });

async function addMia(client: TestClient) {
  const mia = await client.post<{ id: string }>('/api/family-members', {
    name: 'Mia Rivera',
    date_of_birth: MIA_BIRTH_DATE,
  });
  expect(mia.status).toBe(201);
  return mia.body.id;
}

const connectionsOf = async (client: TestClient) =>
  (await client.get<ConnectionsAnswer>('/api/connections')).body;

/** The connection once no sync runs on it. */
async function settled(client: TestClient, id: string): Promise<Connection> {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    const connection = (await connectionsOf(client)).connections.find((each) => each.id === id);
    if (!connection) throw new Error(`no connection ${id}`);
    if (connection.status !== 'syncing') return connection;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the sync did not end');
}

/** 'Connect' (or 'Reconnect'), signing in at the portal: answers where the browser came back to. */
async function signInFor(client: TestClient, started: ConnectStarted, username = 'mia') {
  const back = await signInAtPortal(started.authorize_url, username, REDIRECT_URI);
  if (!('callback' in back)) throw new Error(`the portal showed a page: ${back.page}`);
  const answer = await client.request('GET', back.callback.pathname + back.callback.search);
  expect(answer.status).toBe(302);
  return {
    location: new URL(answer.headers.get('location') ?? '', REDIRECT_URI),
    callback: back.callback,
  };
}

async function connect(client: TestClient, personId: string, portalName = PORTAL) {
  const started = await client.post<ConnectStarted>('/api/connections', {
    portal: portalName,
    person_id: personId,
  });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const { location } = await signInFor(client, started.body);
  expect(location.pathname).toBe('/profile-settings');
  const id = location.searchParams.get('connected');
  expect(id, location.href).toBeTruthy();
  return settled(client, id!);
}

/** The connection's row as stored (the test reads the database itself). */
const rowOf = (id: string) =>
  server.db.selectFrom('connections').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

const conditionsOf = async (client: TestClient, personId: string) =>
  (
    await client.get<{ items: { id: string; condition_name: string }[] }>(
      `/api/history?member=${personId}`,
    )
  ).body.items;

const labsOf = async (client: TestClient, personId: string) =>
  (
    await client.get<{ items: { id: string; test_name: string }[] }>(
      `/api/labs?member=${personId}&limit=200`,
    )
  ).body.items;

describe('a patient portal connection', () => {
  let client: TestClient;
  let miaId: string;
  let connection: Connection;

  beforeAll(async () => {
    ({ client } = await signedUpClient(server, 'Ana Rivera'));
    miaId = await addMia(client);
  });

  it('offers the portals SMART_PROVIDERS names, and asks for the patient scopes with PKCE', async () => {
    const answer = await connectionsOf(client);
    expect(answer).toEqual({ portals: [{ name: PORTAL }, { name: SLOW_PORTAL }], connections: [] });
    const started = await client.post<ConnectStarted>('/api/connections', {
      portal: PORTAL,
      person_id: miaId,
    });
    const address = new URL(started.body.authorize_url);
    expect(address.origin).toBe(portal.issuer);
    const query = Object.fromEntries(address.searchParams);
    expect(query).toMatchObject({
      response_type: 'code',
      client_id: portal.clientId,
      redirect_uri: REDIRECT_URI,
      aud: portal.fhirBaseUrl,
      code_challenge_method: 'S256',
    });
    expect(query.scope?.split(' ').sort()).toEqual(
      ['fhirUser', 'launch/patient', 'offline_access', 'openid', 'patient/*.rs'].sort(),
    );
    expect(query.state).toMatch(/^[\w-]{40,}$/);
    expect(query.code_challenge).toMatch(/^[\w-]{43}$/);
  });

  it("connects Mia's portal and brings her records in, each saying where from", async () => {
    connection = await connect(client, miaId);
    expect(connection).toMatchObject({
      portal: PORTAL,
      person: { id: miaId, name: 'Mia Rivera' },
      status: 'connected',
      problem: null,
    });
    expect(connection.last_synced_at).not.toBeNull();
    expect(connection.last_sync_summary).toMatch(/^Imported \d+ records/);

    const conditions = await conditionsOf(client, miaId);
    expect(conditions.length).toBeGreaterThan(0);
    const detail = await client.get<{ imported_from: ImportedFrom | null }>(
      `/api/history/${conditions[0]!.id}`,
    );
    expect(detail.body.imported_from).toMatchObject({ file_name: PORTAL });
    expect((await labsOf(client, miaId)).length).toBeGreaterThan(0);
    // The document kept apart at the portal (a Binary) came with its file.
    const documents = (await client.get<DocumentPage>('/api/documents?limit=10')).body.documents;
    expect(documents.length).toBe(1);
    // Paging followed: vital signs and immunizations span pages at the portal.
    const pages = portal.requests.filter((request) => request.query._page !== undefined);
    expect(pages.length).toBeGreaterThan(0);

    const history = (await client.get<ImportHistoryEntry[]>('/api/imports')).body;
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ file_name: PORTAL, person: { id: miaId } });
  });

  it('keeps the tokens sealed at rest', async () => {
    const row = await rowOf(connection.id);
    for (const sealed of [row.access_token, row.refresh_token]) {
      // A JWE (dir, A256GCM): five parts, the token nowhere in the clear.
      expect(sealed?.split('.')).toHaveLength(5);
      expect(sealed?.split('.')[1]).toBe('');
    }
    expect(row.patient_id).toBe(portal.patientId('mia'));
  });

  it('adds nothing on a sync again, and leaves no empty import behind', async () => {
    const before = (await labsOf(client, miaId)).length;
    const sync = await client.post<Connection>(`/api/connections/${connection.id}/sync`);
    expect(sync.status).toBe(202);
    const after = await settled(client, connection.id);
    expect(after.last_sync_summary).toBe('Nothing new');
    expect((await labsOf(client, miaId)).length).toBe(before);
    expect((await client.get<ImportHistoryEntry[]>('/api/imports')).body).toHaveLength(1);
  });

  it('brings a new lab result from the portal on the next sync', async () => {
    const before = await labsOf(client, miaId);
    portal.addResource('mia', newLabResult(portal.patientId('mia')));
    await client.post(`/api/connections/${connection.id}/sync`);
    const after = await settled(client, connection.id);
    expect(after.last_sync_summary).toBe('Imported 1 record');
    const labs = await labsOf(client, miaId);
    expect(labs).toHaveLength(before.length + 1);
    expect(labs.map((lab) => lab.test_name)).toContain('Hemoglobin [Mass/volume] in Blood');
  });

  it('renews an access token that ran out, keeping the refresh token the portal rotates', async () => {
    const sealedBefore = (await rowOf(connection.id)).refresh_token;
    portal.expireAccessTokens();
    await client.post(`/api/connections/${connection.id}/sync`);
    const after = await settled(client, connection.id);
    expect(after).toMatchObject({ status: 'connected', last_sync_summary: 'Nothing new' });
    const sealedAfter = (await rowOf(connection.id)).refresh_token;
    expect(sealedAfter).not.toBe(sealedBefore);
  });

  it('says plainly when the portal refuses, and syncs again once it does not', async () => {
    portal.refuseReads('Access suspended by the health system');
    await client.post(`/api/connections/${connection.id}/sync`);
    expect(await settled(client, connection.id)).toMatchObject({
      status: 'failed',
      problem: 'The portal refused: Access suspended by the health system',
    });
    portal.refuseReads(null);
    await client.post(`/api/connections/${connection.id}/sync`);
    expect(await settled(client, connection.id)).toMatchObject({
      status: 'connected',
      problem: null,
    });
  });

  it("asks to sign in again when the portal revoked the refresh token, and 'Reconnect' mends it", async () => {
    portal.expireAccessTokens();
    await portal.revokeRefreshTokens('mia');
    await client.post(`/api/connections/${connection.id}/sync`);
    expect(await settled(client, connection.id)).toMatchObject({
      status: 'needs-sign-in',
      problem: 'Riverside Health asked to sign in again',
    });
    const started = await client.post<ConnectStarted>(
      `/api/connections/${connection.id}/reconnect`,
    );
    expect(started.status).toBe(200);
    const { location } = await signInFor(client, started.body);
    expect(location.searchParams.get('connected')).toBe(connection.id);
    expect(await settled(client, connection.id)).toMatchObject({
      status: 'connected',
      problem: null,
      last_sync_summary: 'Nothing new',
    });
    expect((await connectionsOf(client)).connections).toHaveLength(1);
  });

  it('syncs each connection a day after its last sync, by the daily pass', async () => {
    const before = await settled(client, connection.id);
    await server.db
      .updateTable('connections')
      .set({ next_sync_at: '2000-01-01T00:00:00.000Z' })
      .where('id', '=', connection.id)
      .execute();
    let after = before;
    for (
      let attempt = 0;
      attempt < 200 && after.last_synced_at === before.last_synced_at;
      attempt += 1
    ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      after = await settled(client, connection.id);
    }
    expect(after.last_synced_at).not.toBe(before.last_synced_at);
    const row = await rowOf(connection.id);
    expect(Date.parse(row.next_sync_at) - Date.now()).toBeGreaterThan(23 * 60 * 60 * 1000);
  });

  it("keeps each account's connections its own", async () => {
    const { client: other } = await signedUpClient(server, 'Someone Else');
    expect((await connectionsOf(other)).connections).toEqual([]);
    for (const [method, path] of [
      ['POST', `/api/connections/${connection.id}/sync`],
      ['POST', `/api/connections/${connection.id}/reconnect`],
      ['DELETE', `/api/connections/${connection.id}`],
    ] as const) {
      expect((await other.request(method, path)).status).toBe(404);
    }
    const theirs = await other.post('/api/connections', { portal: PORTAL, person_id: miaId });
    expect(theirs.status).toBe(404);
    expect((await connectionsOf(client)).connections).toHaveLength(1);
  });

  it('refuses what is not a portal or a person, naming the field', async () => {
    const unknown = await client.post<{ message: string; field: string }>('/api/connections', {
      portal: 'Nowhere General',
      person_id: miaId,
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({
      message: 'Health System: choose one of the portals this server offers',
      field: 'portal',
    });
    const noPerson = await client.post<{ field: string }>('/api/connections', { portal: PORTAL });
    expect(noPerson.status).toBe(400);
    expect(noPerson.body.field).toBe('person_id');
  });

  it("takes the portal's answer only once, for the account that started it, from its issuer", async () => {
    const started = (
      await client.post<ConnectStarted>('/api/connections', { portal: PORTAL, person_id: miaId })
    ).body;
    const back = await signInAtPortal(started.authorize_url, 'mia', REDIRECT_URI);
    if (!('callback' in back)) throw new Error(back.page);
    const callback = back.callback.pathname + back.callback.search;

    // Another account's browser cannot finish it, and does not use it up.
    const { client: stranger } = await signedUpClient(server, 'Stranger');
    const refused = await stranger.request('GET', callback);
    expect(
      new URL(refused.headers.get('location')!, REDIRECT_URI).searchParams.get('connection_error'),
    ).toBe(START_NOT_FOUND);
    // An answer claiming another issuer is refused (RFC 9207).
    const forged = new URL(back.callback);
    forged.searchParams.set('iss', 'https://portal.attacker.example');
    const wrongIssuer = await client.request('GET', forged.pathname + forged.search);
    expect(
      new URL(wrongIssuer.headers.get('location')!, REDIRECT_URI).searchParams.get(
        'connection_error',
      ),
    ).toMatch(/^The portal's answer could not be used/);
    // The state was taken by that attempt: the real answer comes too late.
    const again = await client.request('GET', callback);
    expect(
      new URL(again.headers.get('location')!, REDIRECT_URI).searchParams.get('connection_error'),
    ).toBe(START_NOT_FOUND);
    expect((await connectionsOf(client)).connections).toHaveLength(1);
  });

  it('brings nothing in when the portal signed in someone born on another day', async () => {
    const { client: parent } = await signedUpClient(server, 'Parent');
    const leo = await parent.post<{ id: string }>('/api/family-members', {
      name: 'Leo Rivera',
      date_of_birth: '2015-02-03',
    });
    const connected = await connect(parent, leo.body.id);
    expect(connected).toMatchObject({ status: 'failed', last_synced_at: null });
    expect(connected.problem).toBe(
      `Riverside Health signed in Mia Rivera (born ${MIA_BIRTH_DATE}), not Leo Rivera (born 2015-02-03): nothing was brought in. Disconnect, and connect the right person`,
    );
    expect(await conditionsOf(parent, leo.body.id)).toEqual([]);
    expect((await parent.get<ImportHistoryEntry[]>('/api/imports')).body).toEqual([]);
  });

  it("syncs one account's connection while another's portal is slow", async () => {
    const { client: neighbour } = await signedUpClient(server, 'Neighbour');
    const theirMia = await addMia(neighbour);
    const slow = await connect(neighbour, theirMia, SLOW_PORTAL);
    expect(slow.status).toBe('connected');
    slowPortal.delay(4000);
    await neighbour.post(`/api/connections/${slow.id}/sync`);
    const started = Date.now();
    await client.post(`/api/connections/${connection.id}/sync`);
    expect(await settled(client, connection.id)).toMatchObject({ status: 'connected' });
    const mine = Date.now() - started;
    expect((await connectionsOf(neighbour)).connections[0]?.status).toBe('syncing');
    expect(mine).toBeLessThan(4000);
    slowPortal.delay(0);
    expect(await settled(neighbour, slow.id)).toMatchObject({ status: 'connected' });
  });

  it('disconnects: revokes the token at the portal, forgets it here, keeps the records', async () => {
    const conditions = await conditionsOf(client, miaId);
    const revokedBefore = portal.revoked().length;
    const removed = await client.request('DELETE', `/api/connections/${connection.id}`);
    expect(removed.status).toBe(204);
    expect(portal.revoked().length).toBeGreaterThan(revokedBefore);
    expect((await connectionsOf(client)).connections).toEqual([]);
    expect(
      await server.db
        .selectFrom('connections')
        .select('id')
        .where('id', '=', connection.id)
        .execute(),
    ).toEqual([]);
    expect(await conditionsOf(client, miaId)).toEqual(conditions);
    const activity = await client.get<{ event: string }[]>('/api/security-activity');
    const events = activity.body.map((each) => each.event);
    expect(events).toEqual(
      expect.arrayContaining(['portal_connected', 'portal_disconnected', 'portal_connect_failed']),
    );
  });
});
