/**
 * Reminders sent out: the VAPID keys web push knows this server by (VAPID_PUBLIC_KEY,
 * VAPID_PRIVATE_KEY, VAPID_SUBJECT, or a pair kept in DATA_DIR) and the private hosts an
 * ntfy topic or webhook may be on (NOTIFY_ALLOWED_HOSTS).
 */
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { readOrCreateVapidKeyFile, VAPID_FILE_NAME } from '../operations/secrets';
import { checked, ConfigError, parseEnv, refuse, unsetIfEmpty, type Env } from './env';

/** VAPID: the key pair push services know this server by, and a contact for them. */
export interface VapidConfig {
  publicKey: string;
  privateKey: string;
  /** A `mailto:` or `https:` address the push services may write to. */
  subject: string;
}

/** VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY: both or neither (null: the pair in DATA_DIR). */
const vapidKeysEnv = z
  .object({
    VAPID_PUBLIC_KEY: unsetIfEmpty(z.string().optional()),
    VAPID_PRIVATE_KEY: unsetIfEmpty(z.string().optional()),
  })
  .transform((env, ctx) => {
    if (!env.VAPID_PUBLIC_KEY && !env.VAPID_PRIVATE_KEY) return null;
    if (!env.VAPID_PUBLIC_KEY || !env.VAPID_PRIVATE_KEY) {
      return refuse(ctx, 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together');
    }
    return { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY };
  });

const VAPID_KEYS_MESSAGE = 'The VAPID keys must be URL-safe base64 (as web-push makes them)';

/** A key pair as web-push makes it, whether from the environment or DATA_DIR. */
const vapidKeyPair = z.object(
  {
    publicKey: z.string({ error: VAPID_KEYS_MESSAGE }).regex(/^[\w-]{87}$/, VAPID_KEYS_MESSAGE),
    privateKey: z.string({ error: VAPID_KEYS_MESSAGE }).regex(/^[\w-]{43}$/, VAPID_KEYS_MESSAGE),
  },
  { error: VAPID_KEYS_MESSAGE },
);

const vapidSubjectEnv = z.object({
  VAPID_SUBJECT: unsetIfEmpty(
    checked(
      (subject) => /^(mailto:|https:\/\/)/.test(subject),
      (subject) => `VAPID_SUBJECT must be a mailto: or https:// address, not "${subject}"`,
    ).default('mailto:kin-health@example.invalid'),
  ),
});

/** The pair kept in DATA_DIR, made on the first start without VAPID_* keys. */
function keptVapidKeys(dataDir: string): unknown {
  const text = readOrCreateVapidKeyFile(dataDir);
  try {
    return JSON.parse(text);
  } catch {
    throw new ConfigError(`${path.join(dataDir, VAPID_FILE_NAME)} is not a VAPID key pair`);
  }
}

/**
 * VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (both or neither), or a key pair made once and kept
 * in DATA_DIR: a new pair would cut every device's subscription off.
 */
export function loadVapidConfig(env: Env, dataDir: string): VapidConfig {
  const given = parseEnv(vapidKeysEnv, env);
  const keys = parseEnv(vapidKeyPair, given ?? keptVapidKeys(dataDir));
  return { ...keys, subject: parseEnv(vapidSubjectEnv, env).VAPID_SUBJECT };
}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*$/;

/**
 * NOTIFY_ALLOWED_HOSTS: host names or addresses separated by commas (`ntfy.lan, 192.168.1.20,
 * [fd00::5]`), written as a URL's host is compared with them: lower case, no brackets, no
 * final dot, no port.
 */
export const notifyAllowedHostsEnv = z.object({
  NOTIFY_ALLOWED_HOSTS: z
    .string()
    .optional()
    .transform((value) =>
      value === undefined || value.trim() === ''
        ? []
        : value.split(',').map((host) =>
            host
              .trim()
              .toLowerCase()
              .replace(/^\[(.*)\]$/, '$1')
              .replace(/\.$/, ''),
          ),
    )
    .pipe(
      z.array(
        checked(
          (host) => isIP(host) !== 0 || HOST_NAME.test(host),
          (host) =>
            `NOTIFY_ALLOWED_HOSTS must be host names or addresses separated by commas (e.g. ntfy.lan,192.168.1.20), without a scheme or port; "${host}" is not one`,
        ),
      ),
    )
    .transform((hosts) => [...new Set(hosts)]),
});
