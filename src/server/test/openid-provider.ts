/**
 * A real OpenID Provider for the single sign-on tests: the `oidc-provider` package (certified
 * by the OpenID Foundation) on 127.0.0.1, with one test client and the accounts a test adds.
 * Its sign-in page is a minimal form (one 'Email' field and 'Continue'); consent is given
 * with the sign-in. A test can also have the token endpoint answer with an ID token for
 * another audience, re-signed with the provider's own key, or signed with a stranger's key,
 * to see the product refuse it.
 */
import { decodeJwt, exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import Provider from 'oidc-provider';
import { listenOnLoopback, withSignInPage } from './authorization-server';

export const TEST_OIDC_CLIENT_ID = 'kin-health';
export const TEST_OIDC_CLIENT_SECRET = 'kin-health-test-client-secret';

export interface TestIdentity {
  sub: string;
  email: string;
  emailVerified: boolean;
  name: string;
}

/** What the token endpoint does to the ID token it answers with. */
export type IdTokenTampering = 'none' | 'other-audience' | 'wrong-signature';

export interface TestOpenIdProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Adds (or replaces) an account, found by its email on the sign-in form. */
  addIdentity(identity: TestIdentity): void;
  tamper(mode: IdTokenTampering): void;
  /** How long an authorization code is good for, from now on (default 60 s). */
  expireCodesAfter(seconds: number): void;
  close(): Promise<void>;
}

/**
 * Starts the provider on `port` (0: any free port). `redirectUris` are the product's
 * callback addresses (`{origin}/api/auth/callback/oidc`) that the test client may use.
 */
export async function startTestOpenIdProvider(options: {
  port?: number;
  redirectUris: string[];
}): Promise<TestOpenIdProvider> {
  const identities = new Map<string, TestIdentity>();
  let tampering: IdTokenTampering = 'none';
  let codeSeconds = 60;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey: JWK = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256' };
  const stranger = (await generateKeyPair('RS256')).privateKey;

  const { server, issuer, close } = await listenOnLoopback(options.port);

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: TEST_OIDC_CLIENT_ID,
        client_secret: TEST_OIDC_CLIENT_SECRET,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [signingKey] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    scopes: ['openid', 'email', 'profile'],
    features: { devInteractions: { enabled: false } },
    // The claims ride in the ID token itself, as most identity providers send them.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    ttl: {
      AuthorizationCode: () => codeSeconds,
      AccessToken: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
      Grant: 600,
    },
    cookies: { keys: ['test-openid-provider-cookie-key'] },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => {
      const identity = [...identities.values()].find((candidate) => candidate.sub === sub);
      if (!identity) return undefined;
      return {
        accountId: sub,
        claims: () => ({
          sub,
          email: identity.email,
          email_verified: identity.emailVerified,
          name: identity.name,
        }),
      };
    },
  });
  provider.on('server_error', (_ctx, error) => {
    console.error('test OpenID Provider error', error);
  });

  // The token endpoint's answer, changed as the test asked.
  provider.use(async (ctx, next) => {
    await next();
    if (tampering === 'none' || ctx.path !== '/token' || ctx.status !== 200) return;
    const body = ctx.body as { id_token?: string } | undefined;
    if (!body?.id_token) return;
    const claims = decodeJwt(body.id_token);
    const otherAudience = tampering === 'other-audience';
    const token = await new SignJWT({
      ...claims,
      aud: otherAudience ? 'another-application' : claims.aud,
    })
      .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
      .sign(otherAudience ? privateKey : stranger);
    ctx.body = { ...body, id_token: token };
  });

  server.on(
    'request',
    withSignInPage(
      provider,
      {
        title: 'Test Identity Provider',
        label: 'Email',
        name: 'email',
        type: 'email',
        button: 'Continue',
        unknown: 'No such account',
      },
      (email, params) => {
        const identity = identities.get(email.toLowerCase());
        if (!identity) return undefined;
        const grant = new provider.Grant({
          accountId: identity.sub,
          clientId: String(params.client_id),
        });
        grant.addOIDCScope('openid email profile');
        return grant;
      },
    ),
  );

  return {
    issuer,
    clientId: TEST_OIDC_CLIENT_ID,
    clientSecret: TEST_OIDC_CLIENT_SECRET,
    addIdentity: (identity) => identities.set(identity.email.toLowerCase(), identity),
    tamper: (mode) => {
      tampering = mode;
    },
    expireCodesAfter: (seconds) => {
      codeSeconds = seconds;
    },
    close,
  };
}
