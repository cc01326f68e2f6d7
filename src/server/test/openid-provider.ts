/**
 * A real OpenID Provider for the single sign-on tests: the `oidc-provider` package (certified
 * by the OpenID Foundation) on 127.0.0.1, with one test client and the accounts a test adds.
 * Its sign-in page is a minimal form (one 'Email' field and 'Continue'); consent is given
 * with the sign-in. A test can also have the token endpoint answer with an ID token for
 * another audience, re-signed with the provider's own key, or signed with a stranger's key,
 * to see the product refuse it.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import Provider from 'oidc-provider';

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

async function formBody(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function signInPage(uid: string, message = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Test Identity Provider</title></head>
<body style="font-family: sans-serif; padding: 1rem">
<h1>Test Identity Provider</h1>${message ? `<p role="alert">${escapeHtml(message)}</p>` : ''}
<form method="post" action="/interaction/${encodeURIComponent(uid)}">
<label for="email">Email</label> <input id="email" name="email" type="email">
<button type="submit">Continue</button></form></body></html>`;
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

  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer = `http://127.0.0.1:${port}`;

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

  const callback = provider.callback();
  server.on('request', (request, response) => {
    const match = /^\/interaction\/([\w-]+)$/.exec(request.url ?? '');
    if (!match) {
      callback(request, response);
      return;
    }
    void (async () => {
      const details = await provider.interactionDetails(request, response);
      if (request.method !== 'POST') {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(signInPage(details.uid));
        return;
      }
      const email = (await formBody(request)).get('email')?.trim().toLowerCase() ?? '';
      const identity = identities.get(email);
      if (!identity) {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(signInPage(details.uid, 'No such account'));
        return;
      }
      const grant = new provider.Grant({
        accountId: identity.sub,
        clientId: String(details.params.client_id),
      });
      grant.addOIDCScope('openid email profile');
      const grantId = await grant.save();
      await provider.interactionFinished(
        request,
        response,
        { login: { accountId: identity.sub }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
    })().catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(String(error));
    });
  });

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
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
