/**
 * A patient portal for the connection tests: a SMART on FHIR server on 127.0.0.1 for the
 * SMART App Launch standalone flow. Its authorization server is `oidc-provider` (certified
 * by the OpenID Foundation): authorization code with PKCE, `state`, `aud`, refresh tokens
 * for `offline_access`, revocation, the patient's FHIR id in the token answer. Its FHIR API
 * (`/fhir`) answers reads and paged searches of the signed-in patient's resources, and
 * checks every access token against the provider's own store and scopes (SMART v2 `.rs`, or
 * v1 `.read` on a v1-only server). A test adds the patients, and can expire the access
 * tokens, revoke the refresh tokens, have reads refused or slowed, and see what was read.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import Provider, { errors, type KoaContext, type StoredToken } from 'oidc-provider';
import type { Bundle, OperationOutcome, OperationOutcomeIssue, Resource } from '@medplum/fhirtypes';
import { listenOnLoopback, withSignInPage } from './authorization-server';
import { newLabResult } from './smart-portal-records';

export const SMART_CLIENT_ID = 'kin-health-portal';
export const SMART_CONFIDENTIAL_CLIENT_ID = 'kin-health-portal-confidential';
export const SMART_CONFIDENTIAL_CLIENT_SECRET = 'kin-health-portal-test-secret';

/** The resource types the portal searches by patient (Coverage by `beneficiary` too). */
export const SMART_SEARCH_TYPES = [
  'AllergyIntolerance',
  'Condition',
  'MedicationRequest',
  'MedicationStatement',
  'Immunization',
  'Observation',
  'Encounter',
  'Procedure',
  'DocumentReference',
  'Coverage',
] as const;

/** Every type a scope may name: the searched ones and those only read by id. */
const SCOPE_TYPES = [
  'Patient',
  ...SMART_SEARCH_TYPES,
  'Binary',
  'Organization',
  'Practitioner',
] as const;

const OIDC_SCOPES = ['openid', 'fhirUser', 'offline_access', 'launch/patient'];

/** The patient scopes the portal grants: SMART v2 (`.rs`, `.r`, `.s`) or v1 (`.read`). */
function patientScopes(permissionV2: boolean): string[] {
  const permissions = permissionV2 ? ['rs', 'r', 's'] : ['read'];
  return ['*', ...SCOPE_TYPES].flatMap((type) =>
    permissions.map((permission) => `patient/${type}.${permission}`),
  );
}

/** Whether granted scopes let a token read (`r`) or search (`s`) a type. */
export function scopesAllow(scope: string, type: string, action: 'r' | 's'): boolean {
  return scope.split(' ').some((granted) => {
    const match = /^patient\/(\*|[A-Za-z]+)\.(read|\*|c?r?u?d?s?)$/.exec(granted);
    if (!match || (match[1] !== '*' && match[1] !== type)) return false;
    const permission = match[2]!;
    return permission === 'read' || permission === '*' || permission.includes(action);
  });
}

export interface TestSmartServerOptions {
  /** 0 (the default): any free port. */
  port?: number;
  /** The product's callback addresses (`{BASE_URL}/api/connections/callback`). */
  redirectUris: string[];
  /** SMART v2 scopes (the default), or a v1-only server that grants `.read` scopes only. */
  permissionV2?: boolean;
  /** Whether the authorization response carries `iss` (RFC 9207; the default). */
  issInResponse?: boolean;
  /** Registers a confidential client too, authenticating at the token endpoint this way. */
  confidentialClient?: 'client_secret_basic' | 'client_secret_post';
  /** Entries per search page (default 20). */
  pageSize?: number;
  /**
   * For the browser tests, which cannot reach this object: `POST /controls/new-lab-result?
   * username={u}` adds a new lab result to that patient's records (smart-portal-records.ts).
   */
  controls?: boolean;
}

export interface PortalPatient {
  /** What the patient types on the portal's sign-in page. */
  username: string;
  /** FHIR R4 resources, the Patient among them. */
  resources: Resource[];
}

/** One request to the FHIR API, as the server took it. */
export interface FhirRequest {
  method: string;
  /** From `/fhir` on, e.g. `/fhir/Observation`. */
  path: string;
  query: Record<string, string>;
}

/** A token given to the revocation endpoint. */
export interface RevokedToken {
  token: string;
  tokenTypeHint: string | undefined;
}

export interface TestSmartServer {
  issuer: string;
  /** `{issuer}/fhir`: the portal's FHIR base URL, the `aud` of its sign-in. */
  fhirBaseUrl: string;
  /** The public client (no secret, PKCE). */
  clientId: string;
  /** The confidential client, when the options asked for one. */
  confidentialClient: { clientId: string; clientSecret: string } | undefined;
  /** The FHIR id of a patient's Patient resource. */
  patientId(username: string): string;
  addPatient(patient: PortalPatient): void;
  /** Adds a resource to a patient's records (a new lab result at the portal). */
  addResource(username: string, resource: Resource): void;
  /** Every access token issued so far answers 401 from now on; refreshing still works. */
  expireAccessTokens(): void;
  /** Revokes the refresh tokens (of one patient, or all): refreshing then fails. */
  revokeRefreshTokens(username?: string): Promise<number>;
  /** The tokens the revocation endpoint was given, oldest first. */
  revoked(): RevokedToken[];
  /** The FHIR API's requests, oldest first. */
  readonly requests: FhirRequest[];
  /** FHIR reads answer 403 with this reason, or as usual again (null). */
  refuseReads(reason: string | null): void;
  /** FHIR reads wait this long before they answer. */
  delay(ms: number): void;
  close(): Promise<void>;
}

interface StoredPatient {
  username: string;
  patientId: string;
  resources: Resource[];
}

const FHIR_JSON = 'application/fhir+json; charset=utf-8';

function operationOutcome(
  code: OperationOutcomeIssue['code'],
  diagnostics: string,
): OperationOutcome {
  return { resourceType: 'OperationOutcome', issue: [{ severity: 'error', code, diagnostics }] };
}

function send(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  response.writeHead(status, { 'content-type': FHIR_JSON, ...headers });
  response.end(JSON.stringify(body));
}

/** Stamped as a server stamps what it stores. */
function stored(resource: Resource): Resource {
  return {
    ...resource,
    meta: { ...resource.meta, versionId: '1', lastUpdated: new Date().toISOString() },
  };
}

/** Whether a resource's categories include one of `wanted` (`code` or `system|code`, commas). */
function inCategory(resource: Resource, wanted: string): boolean {
  const categories =
    (resource as { category?: Array<{ coding?: Array<{ system?: string; code?: string }> }> })
      .category ?? [];
  const codings = categories.flatMap((category) => category.coding ?? []);
  return wanted.split(',').some((token) => {
    const [system, code] = token.includes('|') ? token.split('|') : [undefined, token];
    return codings.some((coding) => coding.code === code && (!system || coding.system === system));
  });
}

/** `_lastUpdated=gt…|ge…|lt…|le…{instant}`. */
function updatedWithin(resource: Resource, filter: string): boolean {
  const match = /^(gt|ge|lt|le|eq)?(.+)$/.exec(filter);
  const at = Date.parse(match?.[2] ?? '');
  const updated = Date.parse(resource.meta?.lastUpdated ?? '');
  if (Number.isNaN(at) || Number.isNaN(updated)) return true;
  switch (match?.[1]) {
    case 'gt':
      return updated > at;
    case 'ge':
      return updated >= at;
    case 'lt':
      return updated < at;
    case 'le':
      return updated <= at;
    default:
      return updated === at;
  }
}

/**
 * `oidc-provider` keeps `offline_access` only when the authorization request has
 * `prompt=consent`, which SMART clients do not send: a portal's sign-in is its consent, so an
 * authorization request for `offline_access` is taken as asking for consent.
 */
function withConsentForOffline(request: IncomingMessage, url: URL) {
  const scopes = url.searchParams.get('scope')?.split(' ') ?? [];
  if (url.pathname !== '/auth' || !scopes.includes('offline_access')) return;
  const prompts = new Set(url.searchParams.get('prompt')?.split(' ').filter(Boolean));
  if (prompts.has('none')) return;
  prompts.add('consent');
  url.searchParams.set('prompt', [...prompts].join(' '));
  request.url = `${url.pathname}${url.search}`;
}

export async function startTestSmartServer(
  options: TestSmartServerOptions,
): Promise<TestSmartServer> {
  const permissionV2 = options.permissionV2 ?? true;
  const issInResponse = options.issInResponse ?? true;
  const pageSize = options.pageSize ?? 20;
  const patients = new Map<string, StoredPatient>();
  const accessTokens = new Map<string, string>();
  const refreshTokens = new Map<string, string>();
  const expired = new Set<string>();
  const revocations: RevokedToken[] = [];
  const requests: FhirRequest[] = [];
  let refusal: string | null = null;
  let delayMs = 0;

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey: JWK = { ...(await exportJWK(privateKey)), kid: 'portal-key', alg: 'RS256' };

  const { server, issuer, close } = await listenOnLoopback(options.port);
  const fhirBaseUrl = `${issuer}/fhir`;
  const resourceScopes = patientScopes(permissionV2);

  const client = {
    redirect_uris: options.redirectUris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  };
  const provider = new Provider(issuer, {
    clients: [
      { ...client, client_id: SMART_CLIENT_ID, token_endpoint_auth_method: 'none' },
      ...(options.confidentialClient
        ? [
            {
              ...client,
              client_id: SMART_CONFIDENTIAL_CLIENT_ID,
              client_secret: SMART_CONFIDENTIAL_CLIENT_SECRET,
              token_endpoint_auth_method: options.confidentialClient,
            },
          ]
        : []),
    ],
    jwks: { keys: [signingKey] },
    claims: { openid: ['sub'], fhirUser: ['fhirUser'] },
    scopes: OIDC_SCOPES,
    // SMART clients send the FHIR base URL as `aud`; a portal refuses any other.
    extraParams: {
      aud: (_ctx, value) => {
        if (value !== fhirBaseUrl) {
          throw new errors.InvalidRequest(`aud must be this server's FHIR base URL`);
        }
      },
    },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => fhirBaseUrl,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          if (resource !== fhirBaseUrl) throw new errors.InvalidRequest('unknown resource');
          return {
            scope: resourceScopes.join(' '),
            audience: fhirBaseUrl,
            accessTokenFormat: 'opaque',
          };
        },
      },
    },
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    // offline_access brings a refresh token (the authorization requests asking for it are
    // made to ask for consent, see withConsentForOffline).
    issueRefreshToken: (_ctx, registered, source) =>
      registered.grantTypeAllowed('refresh_token') && source.scopes.has('offline_access'),
    ttl: {
      AuthorizationCode: 60,
      AccessToken: 3600,
      RefreshToken: 30 * 24 * 3600,
      IdToken: 3600,
      Interaction: 600,
      Session: 600,
      Grant: 30 * 24 * 3600,
    },
    cookies: { keys: ['test-smart-server-cookie-key'] },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => {
      const patient = patients.get(sub);
      if (!patient) return undefined;
      return {
        accountId: sub,
        claims: () => ({ sub, fhirUser: `${fhirBaseUrl}/Patient/${patient.patientId}` }),
      };
    },
  });
  provider.on('server_error', (_ctx, error) => {
    console.error('test SMART server error', error);
  });
  provider.on('access_token.saved', (token: StoredToken) =>
    accessTokens.set(token.jti, token.accountId),
  );
  provider.on('refresh_token.saved', (token: StoredToken) =>
    refreshTokens.set(token.jti, token.accountId),
  );

  provider.use(async (ctx, next) => {
    await next();
    if (ctx.path === '/token' && ctx.status === 200) await completeTokenAnswer(ctx);
    if (ctx.path === '/token/revocation' && ctx.status === 200) {
      const params = ctx.oidc?.params ?? {};
      revocations.push({
        token: String(params.token),
        tokenTypeHint:
          typeof params.token_type_hint === 'string' ? params.token_type_hint : undefined,
      });
    }
    if (!issInResponse) withoutIss(ctx);
  });

  /** The token answer names the patient, and the OpenID scopes granted beside the FHIR ones. */
  async function completeTokenAnswer(ctx: KoaContext) {
    const body = ctx.body as { access_token?: string; scope?: string };
    const token = body.access_token
      ? await provider.AccessToken.find(body.access_token)
      : undefined;
    const patient = token && patients.get(token.accountId);
    if (!token || !patient) return;
    const grant = (ctx.oidc as { entities?: { Grant?: { getOIDCScope(): string } } }).entities
      ?.Grant;
    const scope = [grant?.getOIDCScope() ?? '', token.scope ?? ''].join(' ').trim();
    ctx.body = { ...body, scope, patient: patient.patientId };
  }

  /** For a portal without RFC 9207: no `iss` in the authorization response or discovery. */
  function withoutIss(ctx: KoaContext) {
    if (ctx.path === '/.well-known/openid-configuration' && ctx.status === 200) {
      ctx.body = { ...(ctx.body as object), authorization_response_iss_parameter_supported: false };
      return;
    }
    const location =
      ctx.status >= 300 && ctx.status < 400 ? URL.parse(ctx.response.get('location')) : null;
    if (!location?.searchParams.has('iss')) return;
    location.searchParams.delete('iss');
    ctx.set('location', location.href);
  }

  function smartConfiguration() {
    return {
      issuer,
      jwks_uri: `${issuer}/jwks`,
      authorization_endpoint: `${issuer}/auth`,
      token_endpoint: `${issuer}/token`,
      revocation_endpoint: `${issuer}/token/revocation`,
      userinfo_endpoint: `${issuer}/me`,
      grant_types_supported: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
      scopes_supported: [...OIDC_SCOPES, ...resourceScopes],
      capabilities: [
        'launch-standalone',
        'client-public',
        'client-confidential-symmetric',
        'context-standalone-patient',
        'permission-offline',
        'permission-patient',
        'sso-openid-connect',
        permissionV2 ? 'permission-v2' : 'permission-v1',
      ],
    };
  }

  function capabilityStatement() {
    return {
      resourceType: 'CapabilityStatement',
      status: 'active',
      date: '2026-01-01',
      kind: 'instance',
      fhirVersion: '4.0.1',
      format: ['json'],
      implementation: { description: 'Test Patient Portal', url: fhirBaseUrl },
      rest: [
        {
          mode: 'server',
          security: {
            service: [
              {
                coding: [
                  {
                    system: 'http://terminology.hl7.org/CodeSystem/restful-security-service',
                    code: 'SMART-on-FHIR',
                  },
                ],
              },
            ],
            extension: [
              {
                url: 'http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris',
                extension: [
                  { url: 'authorize', valueUri: `${issuer}/auth` },
                  { url: 'token', valueUri: `${issuer}/token` },
                  { url: 'revoke', valueUri: `${issuer}/token/revocation` },
                ],
              },
            ],
          },
          resource: SCOPE_TYPES.map((type) => ({
            type,
            interaction: [
              { code: 'read' },
              ...(type === 'Patient' || type === 'Binary' ? [] : [{ code: 'search-type' }]),
            ],
          })),
        },
      ],
    };
  }

  /** The valid access token of a request, or why not (401). */
  async function bearer(request: IncomingMessage): Promise<StoredToken | string> {
    const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    if (!match) return 'An access token is required';
    const token = await provider.AccessToken.find(match[1]!);
    if (!token || expired.has(token.jti)) return 'The access token is unknown or expired';
    return token;
  }

  function searchBundle(url: URL, type: string, found: Resource[]): Bundle {
    const count = Math.max(1, Number(url.searchParams.get('_count')) || pageSize);
    const page = Math.max(1, Number(url.searchParams.get('_page')) || 1);
    const pageUrl = (n: number) => {
      const next = new URL(`${fhirBaseUrl}/${type}${url.search}`);
      next.searchParams.set('_page', String(n));
      return next.href;
    };
    const entries = found.slice((page - 1) * count, page * count);
    return {
      resourceType: 'Bundle',
      type: 'searchset',
      total: found.length,
      link: [
        { relation: 'self', url: pageUrl(page) },
        ...(page * count < found.length ? [{ relation: 'next', url: pageUrl(page + 1) }] : []),
      ],
      entry: entries.map((resource) => ({
        fullUrl: `${fhirBaseUrl}/${resource.resourceType}/${resource.id}`,
        resource,
        search: { mode: 'match' as const },
      })),
    };
  }

  function search(response: ServerResponse, url: URL, type: string, patient: StoredPatient) {
    const params = url.searchParams;
    const asked = params.get('patient') ?? (type === 'Coverage' ? params.get('beneficiary') : null);
    if (!asked) {
      send(response, 403, operationOutcome('forbidden', `${type} is searched by patient`));
      return;
    }
    if (asked.replace(/^Patient\//, '') !== patient.patientId) {
      send(response, 403, operationOutcome('forbidden', 'Another patient'));
      return;
    }
    const category = params.get('category');
    const lastUpdated = params.getAll('_lastUpdated');
    const found = patient.resources.filter(
      (resource) =>
        resource.resourceType === type &&
        (!category || inCategory(resource, category)) &&
        lastUpdated.every((filter) => updatedWithin(resource, filter)),
    );
    send(response, 200, searchBundle(url, type, found));
  }

  function read(
    request: IncomingMessage,
    response: ServerResponse,
    type: string,
    id: string,
    patient: StoredPatient,
  ) {
    if (type === 'Patient' && id !== patient.patientId) {
      send(response, 403, operationOutcome('forbidden', 'Another patient'));
      return;
    }
    const resource = patient.resources.find(
      (candidate) => candidate.resourceType === type && candidate.id === id,
    );
    if (!resource) {
      send(response, 404, operationOutcome('not-found', `${type}/${id} is not known`));
      return;
    }
    if (resource.resourceType === 'Binary' && !/fhir\+json/.test(request.headers.accept ?? '')) {
      response.writeHead(200, {
        'content-type': resource.contentType ?? 'application/octet-stream',
      });
      response.end(Buffer.from(resource.data ?? '', 'base64'));
      return;
    }
    send(response, 200, resource);
  }

  async function serveFhir(request: IncomingMessage, response: ServerResponse, url: URL) {
    requests.push({
      method: request.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
    });
    const path = url.pathname.slice('/fhir'.length);
    if (path === '/.well-known/smart-configuration') {
      send(response, 200, smartConfiguration(), { 'content-type': 'application/json' });
      return;
    }
    if (path === '/metadata') {
      send(response, 200, capabilityStatement());
      return;
    }
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
    const token = await bearer(request);
    if (typeof token === 'string') {
      send(response, 401, operationOutcome('login', token), {
        'www-authenticate': 'Bearer error="invalid_token"',
      });
      return;
    }
    if (request.method !== 'GET') {
      send(response, 405, operationOutcome('not-supported', 'This portal is read-only'));
      return;
    }
    if (refusal !== null) {
      send(response, 403, operationOutcome('forbidden', refusal));
      return;
    }
    const [type = '', id, ...rest] = path.split('/').filter(Boolean);
    const known = (SCOPE_TYPES as readonly string[]).includes(type);
    const searchable = (SMART_SEARCH_TYPES as readonly string[]).includes(type);
    if (!known || rest.length > 0 || (!id && !searchable)) {
      send(response, 404, operationOutcome('not-supported', `${path} is not served here`));
      return;
    }
    const scope = token.scope ?? '';
    // A document's file comes with the document: DocumentReference scopes reach its Binary.
    const allowed =
      scopesAllow(scope, type, id ? 'r' : 's') ||
      (type === 'Binary' && scopesAllow(scope, 'DocumentReference', 'r'));
    if (!allowed) {
      send(
        response,
        403,
        operationOutcome('forbidden', `The access token's scopes do not cover ${type}`),
      );
      return;
    }
    const patient = patients.get(token.accountId);
    if (!patient) {
      send(response, 403, operationOutcome('forbidden', 'No such patient'));
      return;
    }
    if (id) read(request, response, type, id, patient);
    else search(response, url, type, patient);
  }

  const signIn = withSignInPage(
    provider,
    {
      title: 'Test Patient Portal',
      label: 'Username',
      name: 'username',
      type: 'text',
      button: 'Sign in',
      unknown: 'No such patient',
    },
    (username, params) => {
      const patient = patients.get(username.toLowerCase());
      if (!patient) return undefined;
      const requested = String(params.scope ?? '').split(' ');
      const grant = new provider.Grant({
        accountId: patient.username,
        clientId: String(params.client_id),
      });
      grant.addOIDCScope(requested.filter((scope) => OIDC_SCOPES.includes(scope)).join(' '));
      grant.addResourceScope(
        fhirBaseUrl,
        requested.filter((scope) => resourceScopes.includes(scope)).join(' '),
      );
      return grant;
    },
  );

  server.on('request', (request, response) => {
    const url = new URL(request.url ?? '/', issuer);
    if (
      options.controls &&
      request.method === 'POST' &&
      url.pathname === '/controls/new-lab-result'
    ) {
      const username = url.searchParams.get('username') ?? '';
      const patient = patients.get(username.toLowerCase());
      if (!patient) {
        send(response, 404, operationOutcome('not-found', `no patient ${username}`));
        return;
      }
      const result = newLabResult(patient.patientId);
      addTo(username, result);
      send(response, 201, result);
      return;
    }
    if (url.pathname !== '/fhir' && !url.pathname.startsWith('/fhir/')) {
      withConsentForOffline(request, url);
      signIn(request, response);
      return;
    }
    serveFhir(request, response, url).catch((error: unknown) => {
      send(response, 500, operationOutcome('exception', String(error)));
    });
  });

  const patientOf = (username: string) => {
    const patient = patients.get(username.toLowerCase());
    if (!patient) throw new Error(`no patient ${username} at the portal`);
    return patient;
  };
  const addTo = (username: string, resource: Resource) => {
    patientOf(username).resources.push(stored(resource));
  };

  return {
    issuer,
    fhirBaseUrl,
    clientId: SMART_CLIENT_ID,
    confidentialClient: options.confidentialClient
      ? { clientId: SMART_CONFIDENTIAL_CLIENT_ID, clientSecret: SMART_CONFIDENTIAL_CLIENT_SECRET }
      : undefined,
    patientId: (username) => patientOf(username).patientId,
    addPatient: ({ username, resources }) => {
      const patient = resources.find((resource) => resource.resourceType === 'Patient');
      if (!patient?.id) throw new Error(`the records of ${username} have no Patient with an id`);
      const key = username.toLowerCase();
      patients.set(key, { username: key, patientId: patient.id, resources: resources.map(stored) });
    },
    addResource: addTo,
    expireAccessTokens: () => {
      for (const jti of accessTokens.keys()) expired.add(jti);
    },
    revokeRefreshTokens: async (username) => {
      let count = 0;
      for (const [jti, accountId] of refreshTokens) {
        if (username && accountId !== username.toLowerCase()) continue;
        const token = await provider.RefreshToken.find(jti);
        refreshTokens.delete(jti);
        if (!token) continue;
        await token.destroy();
        count += 1;
      }
      return count;
    },
    revoked: () => [...revocations],
    requests,
    refuseReads: (reason) => {
      refusal = reason;
    },
    delay: (ms) => {
      delayMs = ms;
    },
    close,
  };
}
