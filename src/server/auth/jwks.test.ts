/**
 * Signing keys: the public keys are served at /.well-known/jwks.json, without their private
 * halves, and they verify the tokens the server signs. better-auth's own /api/auth/jwks and
 * /api/auth/token are closed: the product calls neither over HTTP.
 */
import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestServer, signedUpClient } from '../test/harness';

const server = useTestServer();

interface Jwks {
  keys: (JsonWebKey & { kid: string; alg: string })[];
}

describe('GET /.well-known/jwks.json', () => {
  it('serves the public keys to anyone, and nothing private', async () => {
    const response = await server.client().get<Jwks>('/.well-known/jwks.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(response.body.keys.length).toBeGreaterThan(0);
    for (const key of response.body.keys) {
      expect(key.kty).toEqual(expect.any(String));
      expect(key.kid).toEqual(expect.any(String));
      expect(key.alg).toEqual(expect.any(String));
      expect(key).not.toHaveProperty('d');
    }
    expect((await server.client().get('/api/auth/jwks')).status).toBe(404);
    // The same keys on every call: they are kept, not made per request.
    expect((await server.client().get<Jwks>('/.well-known/jwks.json')).body).toEqual(response.body);
  });

  it('holds the key that verifies a token the server signed', async () => {
    const { client } = await signedUpClient(server);
    expect((await client.get('/api/auth/token')).status).toBe(404);
    const issued = await server.auth.api.getToken({
      headers: new Headers({ cookie: client.cookieHeader, host: 'localhost:3000' }),
    });
    const [header = '', payload = '', signature = ''] = issued.token.split('.');
    const { kid } = JSON.parse(Buffer.from(header, 'base64url').toString()) as { kid: string };
    const { keys } = (await server.client().get<Jwks>('/.well-known/jwks.json')).body;
    const jwk = keys.find((key) => key.kid === kid);
    expect(jwk).toBeDefined();
    const publicKey = createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' });
    const signed = Buffer.from(`${header}.${payload}`);
    expect(verify(null, signed, publicKey, Buffer.from(signature, 'base64url'))).toBe(true);
    expect(
      verify(null, Buffer.from(`${header}.e30`), publicKey, Buffer.from(signature, 'base64url')),
    ).toBe(false);
  });

  it('puts no token on a session read: the session stays in its cookie', async () => {
    const { client } = await signedUpClient(server);
    const session = await client.get('/api/auth/get-session');
    expect(session.status).toBe(200);
    expect(session.headers.get('set-auth-jwt')).toBeNull();
  });
});
