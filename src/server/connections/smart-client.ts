/**
 * The SMART App Launch standalone flow (SMART App Launch 2.x), as a patient app: discovery
 * from `{fhirBaseUrl}/.well-known/smart-configuration`, the authorization code flow with PKCE
 * (S256) and `state`, the token response's `patient`, refresh and revocation. The OAuth
 * exchanges are oauth4webapi's (it checks the `iss` of the answer, RFC 9207, and the ID
 * token's claims); the portal is reached only through portalFetch (bounded, timed), and
 * over plain http only on a loopback host.
 */
import * as oauth from 'oauth4webapi';
import { z } from 'zod';
import { isLoopbackUrl, type SmartProvider } from './smart-providers';
import { PortalError, portalFetch, PORTAL_UNREACHABLE } from './portal-http';

/** A provider with what its discovery says: where to sign in, and which scopes to ask for. */
export interface Portal {
  provider: SmartProvider;
  server: oauth.AuthorizationServer;
  client: oauth.Client;
  scopes: string;
}

export interface PortalTokens {
  accessToken: string;
  /** When the access token stops working (ISO), when the portal said. */
  accessExpiresAt: string | null;
  refreshToken: string | null;
  scope: string;
  /** The portal's id of its patient (the token response's `patient`). */
  patient: string | null;
}

const url = z.string().refine((value) => URL.canParse(value));
const smartConfiguration = z.object({
  issuer: url.optional(),
  authorization_endpoint: url,
  token_endpoint: url,
  revocation_endpoint: url.optional(),
  capabilities: z.array(z.string()).optional(),
  scopes_supported: z.array(z.string()).optional(),
  code_challenge_methods_supported: z.array(z.string()).optional(),
  authorization_response_iss_parameter_supported: z.boolean().optional(),
});

/** How long a portal's discovery is trusted before it is asked again. */
const DISCOVERY_MS = 10 * 60 * 1000;

/** The scopes a patient app asks for: v2 `.rs` where the portal says it has them, else v1. */
export function patientScopes(
  configuration: z.infer<typeof smartConfiguration>,
  openId: boolean,
): string {
  const v2 =
    configuration.capabilities?.includes('permission-v2') === true ||
    (configuration.scopes_supported ?? []).some((scope) => /^patient\/.+\.c?r?u?d?s$/.test(scope));
  return [
    ...(openId ? ['openid', 'fhirUser'] : []),
    'launch/patient',
    'offline_access',
    v2 ? 'patient/*.rs' : 'patient/*.read',
  ].join(' ');
}

function options(provider: SmartProvider) {
  return {
    [oauth.customFetch]: (address: string, init: RequestInit) => portalFetch(address, init),
    // Plain http is for a sandbox on this machine only (smart-providers.ts checks the base URL).
    [oauth.allowInsecureRequests]: isLoopbackUrl(new URL(provider.fhirBaseUrl)),
  };
}

/** An oauth4webapi refusal, in the family's words; other errors as they are. */
export function portalErrorOf(error: unknown, portal: string): unknown {
  if (error instanceof PortalError) return error;
  if (error instanceof oauth.ResponseBodyError) {
    if (error.error === 'invalid_grant')
      return new PortalError('sign-in', `${portal} asked to sign in again`);
    return new PortalError(
      'refused',
      `The portal refused: ${error.error_description ?? error.error}`,
    );
  }
  if (error instanceof oauth.AuthorizationResponseError) {
    return new PortalError(
      'refused',
      error.error === 'access_denied'
        ? `${portal} was not allowed to share the records`
        : `The portal refused: ${error.error_description ?? error.error}`,
    );
  }
  if (
    error instanceof oauth.OperationProcessingError ||
    error instanceof oauth.UnsupportedOperationError
  ) {
    return new PortalError('refused', `The portal's answer could not be used: ${error.message}`);
  }
  return error;
}

/** Portals' discoveries by provider name, each trusted until its time. */
type Discoveries = Map<string, { portal: Portal; until: number }>;

/** The portal's SMART configuration, read (or remembered) and checked to offer PKCE. */
async function discover(discovered: Discoveries, provider: SmartProvider): Promise<Portal> {
  const cached = discovered.get(provider.name);
  if (cached && cached.until > Date.now()) return cached.portal;
  const response = await portalFetch(`${provider.fhirBaseUrl}/.well-known/smart-configuration`, {
    headers: { accept: 'application/json' },
  });
  let json: unknown = null;
  try {
    json = response.ok ? await response.json() : null;
  } catch {
    // said below
  }
  const parsed = smartConfiguration.safeParse(json);
  if (!parsed.success) {
    throw new PortalError(
      response.ok ? 'refused' : 'unreachable',
      response.ok
        ? `${provider.name} does not describe itself as a SMART on FHIR server`
        : PORTAL_UNREACHABLE,
    );
  }
  const configuration = parsed.data;
  const methods = configuration.code_challenge_methods_supported;
  if (methods && !methods.includes('S256')) {
    throw new PortalError('refused', `${provider.name} does not offer PKCE (S256)`);
  }
  const portal = portalOf(provider, configuration);
  discovered.set(provider.name, { portal, until: Date.now() + DISCOVERY_MS });
  return portal;
}

/** A provider with what its discovery said. */
function portalOf(
  provider: SmartProvider,
  configuration: z.infer<typeof smartConfiguration>,
): Portal {
  return {
    provider,
    server: {
      // Without an issuer, the FHIR server is the authority an `iss` must name.
      issuer: configuration.issuer ?? provider.fhirBaseUrl,
      authorization_endpoint: configuration.authorization_endpoint,
      token_endpoint: configuration.token_endpoint,
      revocation_endpoint: configuration.revocation_endpoint,
      authorization_response_iss_parameter_supported:
        configuration.authorization_response_iss_parameter_supported,
    },
    client: {
      client_id: provider.clientId,
      token_endpoint_auth_method: provider.clientSecret ? 'client_secret_basic' : 'none',
    },
    // An ID token is asked for only where the portal names its issuer, to check it against.
    scopes: provider.scopes ?? patientScopes(configuration, configuration.issuer !== undefined),
  };
}

const authentication = (portal: Portal) =>
  portal.provider.clientSecret
    ? oauth.ClientSecretBasic(portal.provider.clientSecret)
    : oauth.None();

function tokensOf(answer: oauth.TokenEndpointResponse, scope: string): PortalTokens {
  const expiresIn = answer.expires_in;
  return {
    accessToken: answer.access_token,
    accessExpiresAt:
      typeof expiresIn === 'number' ? new Date(Date.now() + expiresIn * 1000).toISOString() : null,
    refreshToken: answer.refresh_token ?? null,
    scope: answer.scope ?? scope,
    patient: typeof answer.patient === 'string' && answer.patient ? answer.patient : null,
  };
}

/** What a sign-in at the portal is made with, and checked against when it comes back. */
interface SignIn {
  state: string;
  codeVerifier: string;
  redirectUri: string;
}

/** Where the browser goes to sign in at the portal. */
async function authorizeUrl(
  portal: Portal,
  { state, codeVerifier, redirectUri }: SignIn,
): Promise<string> {
  const address = new URL(portal.server.authorization_endpoint!);
  address.searchParams.set('response_type', 'code');
  address.searchParams.set('client_id', portal.client.client_id);
  address.searchParams.set('redirect_uri', redirectUri);
  address.searchParams.set('scope', portal.scopes);
  address.searchParams.set('state', state);
  address.searchParams.set('aud', portal.provider.fhirBaseUrl);
  address.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(codeVerifier));
  address.searchParams.set('code_challenge_method', 'S256');
  return address.href;
}

/** The callback's answer checked (state, iss) and its code exchanged with the verifier. */
async function exchangeCode(
  portal: Portal,
  callback: URL,
  { state, codeVerifier, redirectUri }: SignIn,
): Promise<PortalTokens> {
  try {
    const parameters = oauth.validateAuthResponse(portal.server, portal.client, callback, state);
    const response = await oauth.authorizationCodeGrantRequest(
      portal.server,
      portal.client,
      authentication(portal),
      parameters,
      redirectUri,
      codeVerifier,
      options(portal.provider),
    );
    const answer = await oauth.processAuthorizationCodeResponse(
      portal.server,
      portal.client,
      response,
      {
        requireIdToken: false,
      },
    );
    return tokensOf(answer, portal.scopes);
  } catch (error) {
    throw portalErrorOf(error, portal.provider.name);
  }
}

async function refresh(portal: Portal, refreshToken: string): Promise<PortalTokens> {
  try {
    const response = await oauth.refreshTokenGrantRequest(
      portal.server,
      portal.client,
      authentication(portal),
      refreshToken,
      options(portal.provider),
    );
    const answer = await oauth.processRefreshTokenResponse(portal.server, portal.client, response);
    return tokensOf(answer, portal.scopes);
  } catch (error) {
    throw portalErrorOf(error, portal.provider.name);
  }
}

/** Asks the portal to end a token, where it offers revocation; says whether it did. */
async function revoke(portal: Portal, token: string): Promise<boolean> {
  if (!portal.server.revocation_endpoint) return false;
  const response = await oauth.revocationRequest(
    portal.server,
    portal.client,
    authentication(portal),
    token,
    options(portal.provider),
  );
  await oauth.processRevocationResponse(response);
  return true;
}

export function createSmartClient() {
  const discovered: Discoveries = new Map();
  return {
    discover: (provider: SmartProvider) => discover(discovered, provider),
    authorizeUrl,
    exchangeCode,
    refresh,
    revoke,
  };
}

export type SmartClient = ReturnType<typeof createSmartClient>;
