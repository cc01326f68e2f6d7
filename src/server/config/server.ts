/**
 * Where the server keeps its data, how it is reached, and how it signs users in: DATA_DIR,
 * DATABASE_URL, FAMILY_PASSCODE, AUTH_SECRET, PORT, HOST, BASE_URL, TRUST_PROXY, PASSKEYS,
 * LOG_LEVEL and WEB_DIR.
 */
import path from 'node:path';
import { z } from 'zod';
import { isWellFormedPasscode, PASSCODE_FORMAT_MESSAGE } from '../../shared/passcode';
import { checked, refuse, unsetIfEmpty } from './env';

/** DATA_DIR, made absolute: `./data` beside where the server was started unless set. */
export const dataDirEnv = z.object({
  DATA_DIR: unsetIfEmpty(z.string().default('./data')).transform((dir) => path.resolve(dir)),
});

/** DATABASE_URL: a `postgres://` URL, or null for the embedded SQLite database. */
export const databaseEnv = z.object({
  DATABASE_URL: unsetIfEmpty(
    checked(
      (value) => /^postgres(ql)?:\/\//.test(value),
      () => 'DATABASE_URL must start with postgres:// (or leave it unset for SQLite)',
    ).optional(),
  ).transform((url) => url ?? null),
});

/** FAMILY_PASSCODE, when set; otherwise the passcode is the one kept in DATA_DIR. */
export const familyPasscodeEnv = z.object({
  FAMILY_PASSCODE: unsetIfEmpty(
    checked(isWellFormedPasscode, () => `FAMILY_PASSCODE: ${PASSCODE_FORMAT_MESSAGE}`).optional(),
  ),
});

/** AUTH_SECRET, when set; otherwise the key kept in DATA_DIR. */
export const authSecretEnv = z.object({ AUTH_SECRET: unsetIfEmpty(z.string().optional()) });

/** The key that signs sessions, whether from AUTH_SECRET or DATA_DIR. */
export const authSecretSchema = z.object({
  AUTH_SECRET: z.string().min(32, 'AUTH_SECRET must be at least 32 characters'),
});

/** Names a browser treats as secure over plain http (the WebAuthn spec's "localhost"). */
const LOCAL_NAME = /^(?:localhost|[^.]+(?:\.[^.]+)*\.localhost)$/i;

/**
 * PASSKEYS: on unless `off`. On, with BASE_URL set, the server must be reachable where a
 * browser allows passkeys: by a name (not an IP address), over https unless on localhost.
 * Otherwise every passkey would fail in the browser, so the start stops and says why.
 */
function passkeysOn(baseUrl: string | undefined, ctx: z.RefinementCtx): boolean {
  if (!baseUrl) return true;
  // Not a URL: nothing to check here (the vitest runner sets BASE_URL to '/', for one).
  if (!URL.canParse(baseUrl)) return true;
  const url = new URL(baseUrl);
  const host = url.hostname;
  const advice = 'or set PASSKEYS=off to start without passkeys';
  if (/^[\d.]+$/.test(host) || host.startsWith('[')) {
    return refuse(
      ctx,
      `BASE_URL names the server by an IP address (${host}); browsers only allow passkeys for a name such as health.example.com. Use a name, ${advice}`,
    );
  }
  if (url.protocol !== 'https:' && !LOCAL_NAME.test(host)) {
    return refuse(
      ctx,
      `BASE_URL is plain http on ${host}; browsers only allow passkeys over https (or on localhost). Serve it over https, ${advice}`,
    );
  }
  return true;
}

/** How the server is reached and what it logs, in the order they were always checked. */
export const serverEnv = z
  .object({
    PORT: unsetIfEmpty(
      checked(
        (value) => {
          const port = Number(value);
          return Number.isInteger(port) && port >= 0 && port <= 65535;
        },
        (value) => `PORT must be a whole number from 0 to 65535, not "${value}"`,
      )
        .transform(Number)
        .default(3000),
    ),
    HOST: unsetIfEmpty(z.string().default('127.0.0.1')),
    BASE_URL: unsetIfEmpty(z.string().optional()),
    // Only behind a proxy that sets X-Forwarded-For; any other value is "no".
    TRUST_PROXY: z
      .string()
      .optional()
      .transform((value) => value === 'true' || value === '1'),
    PASSKEYS: checked(
      (value) => ['', 'on', 'off'].includes(value),
      (value) => `PASSKEYS must be "on" or "off", not "${value}"`,
    ).optional(),
    LOG_LEVEL: unsetIfEmpty(z.string().default('info')),
    WEB_DIR: unsetIfEmpty(z.string().default('dist/web')).transform((dir) => path.resolve(dir)),
  })
  .transform((env, ctx) => ({
    port: env.PORT,
    host: env.HOST,
    baseUrl: env.BASE_URL ? env.BASE_URL.replace(/\/+$/, '') : null,
    trustProxy: env.TRUST_PROXY,
    passkeys: env.PASSKEYS === 'off' ? false : passkeysOn(env.BASE_URL, ctx),
    logLevel: env.LOG_LEVEL,
    webDir: env.WEB_DIR,
  }));
