/**
 * The tests' patient portal (smart-server.ts) is faithful: a SMART App Launch standalone
 * sign-in made by hand (discovery, PKCE, state, aud, the sign-in page, the code, the token
 * answer), its FHIR reads with paging and scopes, expired and revoked tokens, revocation,
 * and a v1-only portal.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Bundle, Observation } from '@medplum/fhirtypes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieBrowser as Browser } from './portal-sign-in';
import { miaPortalRecords, newLabResult } from './smart-portal-records';
import { startTestSmartServer, type TestSmartServer } from './smart-server';

const REDIRECT_URI = 'http://localhost:4999/api/connections/callback';
const V2_SCOPE = 'openid fhirUser offline_access launch/patient patient/*.rs';

interface Tokens {
  access_token: string;
  refresh_token?: string;
  id_token?: string;
  patient?: string;
  scope: string;
  token_type: string;
  expires_in: number;
}

const base64url = (bytes: Buffer) => bytes.toString('base64url');

/** The SMART standalone launch: the authorization request, signing in as `username`. */
async function launch(
  portal: TestSmartServer,
  { scope = V2_SCOPE, username = 'mia', aud = portal.fhirBaseUrl, clientId = portal.clientId } = {},
) {
  const configuration = (await (
    await fetch(`${portal.fhirBaseUrl}/.well-known/smart-configuration`)
  ).json()) as { authorization_endpoint: string; token_endpoint: string };
  const verifier = base64url(randomBytes(32));
  const state = base64url(randomBytes(16));
  const authorize = new URL(configuration.authorization_endpoint);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    scope,
    state,
    aud,
    code_challenge: base64url(createHash('sha256').update(verifier).digest()),
    code_challenge_method: 'S256',
  }).toString();
  const browser = new Browser();
  let response = await browser.get(authorize.href);
  let location = new URL(response.headers.get('location') ?? '', portal.issuer);
  const signInPage = location.href;
  if (location.pathname.startsWith('/interaction/')) {
    const page = await (await browser.get(signInPage)).text();
    expect(page).toContain('<h1>Test Patient Portal</h1>');
    expect(page).toMatch(/<label for="username">Username<\/label>/);
    expect(page).toContain('Sign in</button>');
    response = await browser.get(signInPage, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username }).toString(),
    });
    if (response.status === 200) return { page: await response.text(), state, verifier };
    while (response.status >= 300 && response.status < 400) {
      location = new URL(response.headers.get('location') ?? '', portal.issuer);
      if (location.href.startsWith(REDIRECT_URI)) break;
      response = await browser.get(location.href);
    }
  }
  return { callback: location, state, verifier, tokenEndpoint: configuration.token_endpoint };
}

async function tokenRequest(portal: TestSmartServer, params: Record<string, string>) {
  const response = await fetch(`${portal.issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: portal.clientId, ...params }).toString(),
  });
  return { status: response.status, body: (await response.json()) as Tokens & { error?: string } };
}

async function signedIn(portal: TestSmartServer, scope = V2_SCOPE): Promise<Tokens> {
  const { callback, verifier } = await launch(portal, { scope });
  const { status, body } = await tokenRequest(portal, {
    grant_type: 'authorization_code',
    code: callback?.searchParams.get('code') ?? '',
    redirect_uri: REDIRECT_URI,
    code_verifier: verifier,
  });
  expect(status).toBe(200);
  return body;
}

const fhirGet = (
  portal: TestSmartServer,
  path: string,
  token: string,
  accept = 'application/fhir+json',
) =>
  fetch(path.startsWith('http') ? path : `${portal.fhirBaseUrl}/${path}`, {
    headers: { authorization: `Bearer ${token}`, accept },
  });

describe('the SMART test portal', () => {
  let portal: TestSmartServer;
  let miaId: string;
  beforeAll(async () => {
    portal = await startTestSmartServer({ redirectUris: [REDIRECT_URI] });
    portal.addPatient({ username: 'mia', resources: await miaPortalRecords() });
    miaId = portal.patientId('mia');
  });
  afterAll(() => portal.close());

  it('describes itself for SMART and FHIR', async () => {
    const response = await fetch(`${portal.fhirBaseUrl}/.well-known/smart-configuration`);
    const configuration = (await response.json()) as Record<string, unknown>;
    expect(configuration).toMatchObject({
      issuer: portal.issuer,
      token_endpoint: `${portal.issuer}/token`,
      revocation_endpoint: `${portal.issuer}/token/revocation`,
      code_challenge_methods_supported: ['S256'],
    });
    expect(configuration.capabilities).toEqual(
      expect.arrayContaining(['launch-standalone', 'permission-v2', 'context-standalone-patient']),
    );
    expect(configuration.capabilities).not.toContain('permission-v1');
    expect(configuration.scopes_supported).toEqual(expect.arrayContaining(['patient/*.rs']));
    const metadata = (await (await fetch(`${portal.fhirBaseUrl}/metadata`)).json()) as {
      resourceType: string;
      fhirVersion: string;
    };
    expect(metadata).toMatchObject({ resourceType: 'CapabilityStatement', fhirVersion: '4.0.1' });
  });

  it('signs a patient in and answers the code with tokens naming the patient', async () => {
    const { callback, state, verifier } = await launch(portal);
    expect(callback?.href.startsWith(REDIRECT_URI)).toBe(true);
    expect(callback?.searchParams.get('state')).toBe(state);
    expect(callback?.searchParams.get('iss')).toBe(portal.issuer);
    const code = callback?.searchParams.get('code') ?? '';
    const exchange = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI };
    // Without the PKCE verifier the code is refused.
    expect((await tokenRequest(portal, exchange)).body.error).toBe('invalid_grant');

    const second = await launch(portal);
    const { status, body } = await tokenRequest(portal, {
      ...exchange,
      code: second.callback?.searchParams.get('code') ?? '',
      code_verifier: second.verifier,
    });
    expect(status).toBe(200);
    expect(body.patient).toBe(miaId);
    expect(body.refresh_token).toEqual(expect.any(String));
    expect(body.id_token).toEqual(expect.any(String));
    expect(body.scope.split(' ').sort()).toEqual(V2_SCOPE.split(' ').sort());
    expect(verifier).not.toBe(second.verifier);
  });

  it('refuses an unknown username and another aud', async () => {
    const unknown = await launch(portal, { username: 'nobody' });
    expect(unknown.page).toContain('<p role="alert">No such patient</p>');
    const elsewhere = await launch(portal, { aud: 'http://127.0.0.1:1/fhir' });
    expect(elsewhere.callback?.searchParams.get('error')).toBe('invalid_request');
  });

  it('answers paged searches and reads of the signed-in patient only', async () => {
    const tokens = await signedIn(portal);
    const patient = (await (
      await fhirGet(portal, `Patient/${miaId}`, tokens.access_token)
    ).json()) as {
      name: Array<{ given: string[]; family: string }>;
    };
    expect(patient.name[0]).toMatchObject({ given: ['Mia'], family: 'Rivera' });

    const first = (await (
      await fhirGet(
        portal,
        `Observation?patient=${miaId}&category=vital-signs`,
        tokens.access_token,
      )
    ).json()) as Bundle;
    expect(first).toMatchObject({ resourceType: 'Bundle', type: 'searchset' });
    expect(first.total).toBeGreaterThan(20);
    expect(first.entry).toHaveLength(20);
    const next = first.link?.find((link) => link.relation === 'next')?.url ?? '';
    expect(next).toMatch(new RegExp(`^${portal.fhirBaseUrl}/Observation\\?.*_page=2`));
    const second = (await (await fhirGet(portal, next, tokens.access_token)).json()) as Bundle;
    expect(second.entry?.[0]?.resource?.id).not.toBe(first.entry?.[0]?.resource?.id);
    expect(portal.requests.at(-1)).toMatchObject({
      method: 'GET',
      path: '/fhir/Observation',
      query: { patient: miaId, category: 'vital-signs', _page: '2' },
    });

    const labs = (await (
      await fhirGet(portal, `Observation?patient=${miaId}&category=laboratory`, tokens.access_token)
    ).json()) as Bundle<Observation>;
    expect(labs.total).toBe(11);
    const coverage = (await (
      await fhirGet(portal, `Coverage?beneficiary=${miaId}`, tokens.access_token)
    ).json()) as Bundle;
    expect(coverage.total).toBe(1);

    const documents = (await (
      await fhirGet(portal, `DocumentReference?patient=${miaId}`, tokens.access_token)
    ).json()) as Bundle;
    const url = (
      documents.entry?.[0]?.resource as { content: Array<{ attachment: { url: string } }> }
    ).content[0]!.attachment.url;
    const file = await fhirGet(portal, url, tokens.access_token, 'application/pdf');
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await file.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');

    expect((await fhirGet(portal, 'Patient/someone-else', tokens.access_token)).status).toBe(403);
    expect(
      (await fhirGet(portal, 'Condition?patient=someone-else', tokens.access_token)).status,
    ).toBe(403);

    portal.addResource('mia', newLabResult(miaId));
    const more = (await (
      await fhirGet(portal, `Observation?patient=${miaId}&category=laboratory`, tokens.access_token)
    ).json()) as Bundle;
    expect(more.total).toBe(12);
  });

  it('refuses what the scopes do not cover, missing tokens and refused reads', async () => {
    const tokens = await signedIn(
      portal,
      'openid fhirUser launch/patient patient/Patient.rs patient/Condition.rs',
    );
    expect(tokens.refresh_token).toBeUndefined();
    expect((await fhirGet(portal, `Condition?patient=${miaId}`, tokens.access_token)).status).toBe(
      200,
    );
    const refused = await fhirGet(portal, `Observation?patient=${miaId}`, tokens.access_token);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { resourceType: string }).resourceType).toBe(
      'OperationOutcome',
    );

    const anonymous = await fetch(`${portal.fhirBaseUrl}/Condition?patient=${miaId}`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');

    portal.refuseReads('Access to this record is restricted');
    const restricted = await fhirGet(portal, `Condition?patient=${miaId}`, tokens.access_token);
    portal.refuseReads(null);
    expect(restricted.status).toBe(403);
    expect(await restricted.json()).toMatchObject({
      issue: [{ diagnostics: 'Access to this record is restricted' }],
    });
  });

  it('expires access tokens, refreshes them, revokes refresh tokens and records revocations', async () => {
    const tokens = await signedIn(portal);
    portal.expireAccessTokens();
    expect((await fhirGet(portal, `Patient/${miaId}`, tokens.access_token)).status).toBe(401);

    const refreshed = await tokenRequest(portal, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token ?? '',
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.patient).toBe(miaId);
    expect(refreshed.body.scope.split(' ')).toContain('patient/*.rs');
    expect((await fhirGet(portal, `Patient/${miaId}`, refreshed.body.access_token)).status).toBe(
      200,
    );

    expect(await portal.revokeRefreshTokens('mia')).toBeGreaterThan(0);
    const afterRevoke = await tokenRequest(portal, {
      grant_type: 'refresh_token',
      refresh_token: refreshed.body.refresh_token ?? '',
    });
    expect(afterRevoke.body.error).toBe('invalid_grant');

    const other = await signedIn(portal);
    const revocation = await fetch(`${portal.issuer}/token/revocation`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: portal.clientId,
        token: other.refresh_token ?? '',
        token_type_hint: 'refresh_token',
      }).toString(),
    });
    expect(revocation.status).toBe(200);
    expect(portal.revoked()).toContainEqual({
      token: other.refresh_token,
      tokenTypeHint: 'refresh_token',
    });
    const revokedRefresh = await tokenRequest(portal, {
      grant_type: 'refresh_token',
      refresh_token: other.refresh_token ?? '',
    });
    expect(revokedRefresh.body.error).toBe('invalid_grant');
  });

  it('waits before answering when asked to', async () => {
    const tokens = await signedIn(portal);
    portal.delay(300);
    const started = Date.now();
    await fhirGet(portal, `Patient/${miaId}`, tokens.access_token);
    portal.delay(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });
});

describe('a v1-only SMART test portal without iss in its answer', () => {
  let portal: TestSmartServer;
  beforeAll(async () => {
    portal = await startTestSmartServer({
      redirectUris: [REDIRECT_URI],
      permissionV2: false,
      issInResponse: false,
    });
    portal.addPatient({ username: 'mia', resources: await miaPortalRecords() });
  });
  afterAll(() => portal.close());

  it('grants v1 scopes, and none of the v2 ones', async () => {
    const configuration = (await (
      await fetch(`${portal.fhirBaseUrl}/.well-known/smart-configuration`)
    ).json()) as { capabilities: string[] };
    expect(configuration.capabilities).toContain('permission-v1');
    expect(configuration.capabilities).not.toContain('permission-v2');

    const v2 = await signedIn(portal);
    expect(v2.scope.split(' ')).not.toContain('patient/*.rs');
    const id = portal.patientId('mia');
    expect((await fhirGet(portal, `Condition?patient=${id}`, v2.access_token)).status).toBe(403);

    const { callback, verifier } = await launch(portal, {
      scope: 'openid fhirUser offline_access launch/patient patient/*.read',
    });
    expect(callback?.searchParams.has('iss')).toBe(false);
    const { body } = await tokenRequest(portal, {
      grant_type: 'authorization_code',
      code: callback?.searchParams.get('code') ?? '',
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    });
    expect(body.scope.split(' ')).toContain('patient/*.read');
    expect(body.refresh_token).toEqual(expect.any(String));
    const conditions = (await (
      await fhirGet(portal, `Condition?patient=${id}`, body.access_token)
    ).json()) as Bundle;
    expect(conditions.total).toBe(7);
  });
});

describe('a SMART test portal with a confidential client', () => {
  it('exchanges the code with the client secret', async () => {
    const portal = await startTestSmartServer({
      redirectUris: [REDIRECT_URI],
      confidentialClient: 'client_secret_basic',
    });
    try {
      portal.addPatient({ username: 'mia', resources: await miaPortalRecords() });
      const client = portal.confidentialClient!;
      const { callback, verifier } = await launch(portal, { clientId: client.clientId });
      const token = await fetch(`${portal.issuer}/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
        },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: callback?.searchParams.get('code') ?? '',
          redirect_uri: REDIRECT_URI,
          code_verifier: verifier,
        }).toString(),
      });
      expect(token.status).toBe(200);
      expect(((await token.json()) as Tokens).patient).toBe(portal.patientId('mia'));
    } finally {
      await portal.close();
    }
  });
});
