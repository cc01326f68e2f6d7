/**
 * Configuration from the environment (CONTRACT.md §1). Every variable is optional; the
 * secrets that are not given are created once and kept in DATA_DIR.
 */
import { DEFAULT_DOCUMENT_QUOTA_MB } from '../shared/documents';
import type { PushEndpointPolicy } from './reminders/push-endpoints';
import { isIP } from 'node:net';
import { randomBytes, randomInt } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import addressparser from 'nodemailer/lib/addressparser';
import webPush from 'web-push';
import { z } from 'zod';
import { isWellFormedPasscode, PASSCODE_FORMAT_MESSAGE } from '../shared/passcode';
import { PASSCODE_LENGTH } from '../shared/constants';
import { DEFAULT_HASH_COST, type HashCost } from './auth/password-hashing';
import type { PasscodeSource } from './db/schema';
import {
  DUE_CHECK_MS,
  parseSmartProviders,
  type SmartProvider,
} from './connections/smart-providers';

export interface RateLimitConfig {
  /** Attempts allowed per window, per client address, on each credential endpoint. */
  max: number;
  windowSeconds: number;
}

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  /** A `postgres://` URL, or null for the embedded SQLite database. */
  databaseUrl: string | null;
  /**
   * The passcode this configuration asks for. The passcode in force is the database's
   * (auth/family-passcode.ts); a start makes this one the passcode when it is not already.
   */
  familyPasscode: string;
  familyPasscodeFrom: PasscodeSource;
  /** Whether the passcode was generated on this start (and so is printed, once). */
  familyPasscodeGenerated: boolean;
  authSecret: string;
  /** The public URL, when the app is served behind a proxy under a fixed name. */
  baseUrl: string | null;
  /** Whether to believe X-Forwarded-For (only behind a proxy that sets it). */
  trustProxy: boolean;
  /**
   * Signing in with a passkey (PASSKEYS, on unless `off`). Its relying party is BASE_URL's
   * host, or the request's host when BASE_URL is unset (docs/decisions/0034-passkeys.md).
   */
  passkeys: boolean;
  rateLimit: RateLimitConfig | null;
  /**
   * Wrong Friends & Family Passcodes allowed per window on the whole server, whichever
   * addresses and emails they come with (PASSCODE_GUESS_LIMIT), before every further check
   * waits a growing delay; null when off.
   */
  passcodeGuessLimit: RateLimitConfig | null;
  /** A session ends this many days after its sign-in, however often it is used. */
  sessionMaxAgeDays: number;
  /** Audit rows older than this many days are deleted. */
  auditRetentionDays: number;
  /**
   * The Argon2id cost of new password and passcode hashes. Always the strong default in the
   * product; no environment variable lowers it. Only the API tests, which sign up hundreds
   * of users, pass a cheaper one.
   */
  passwordHashing: HashCost;
  logLevel: string;
  /** Where the built web app is. */
  webDir: string;
  /** Automatic backups of the embedded SQLite database. */
  backup: BackupConfig;
  /** The keys that sign reminders sent by web push. */
  vapid: VapidConfig;
  /**
   * Where reminders may be sent: always push services' public https addresses in the
   * product, with no variable to change it; only the API tests, whose push service listens
   * on this machine, pass 'any' (reminders/push-endpoints.ts).
   */
  pushEndpoints: PushEndpointPolicy;
  /**
   * NOTIFY_ALLOWED_HOSTS: the hosts (names or addresses) an account's ntfy topic or webhook may
   * be on though they are this machine or a private network (a self-hosted ntfy beside Kin).
   */
  notifyAllowedHosts: string[];
  /** Outgoing mail (SMTP_URL, MAIL_FROM), or null when mail is not set up. */
  mail: MailConfig | null;
  /** Single sign-on with an OpenID Provider (OIDC_*), or null when not set up. */
  singleSignOn: SingleSignOnConfig | null;
  /** The patient portals families may connect to (SMART_PROVIDERS); empty when not set. */
  smartProviders: SmartProvider[];
  /** How often the portals' daily sync looks for connections due (15 minutes; less in tests). */
  connectionsDueCheckMs: number;
  /** Each account's storage limit for documents, in MB (DOCUMENT_QUOTA_MB). */
  documentQuotaMb: number;
  /** The languages documents' text is read in by OCR (OCR_LANGUAGES, default English). */
  ocrLanguages: string[];
}

/**
 * SMTP_URL and MAIL_FROM: `smtp://user:password@host:587` (STARTTLS required, unless
 * `?starttls=optional` or `?starttls=off` says otherwise) or `smtps://user:password@host:465`
 * (TLS from the first byte).
 */
export interface MailConfig {
  host: string;
  port: number;
  /** smtps: TLS from the first byte. */
  secure: boolean;
  /** For smtp: whether the connection must be upgraded to TLS before anything is sent. */
  starttls: 'required' | 'optional' | 'off';
  user: string | null;
  password: string | null;
  /** MAIL_FROM, as given: `Kin Health <kin@example.com>` or `kin@example.com`. */
  from: string;
  /**
   * A certificate (PEM) to trust besides the system's. Never from the environment (the
   * operator has NODE_EXTRA_CA_CERTS for that); only the tests, whose SMTP server has a
   * certificate they made, pass one.
   */
  trustedCertificate?: string;
}

const STARTTLS_MODES = ['required', 'optional', 'off'] as const;

/**
 * The URL is never repeated in a message: it holds the SMTP password.
 */
export function parseMailConfig(env: Env): MailConfig | null {
  const value = env.SMTP_URL;
  if (value === undefined || value === '') return null;
  const shape =
    'SMTP_URL must look like smtp://user:password@host:587 or smtps://user:password@host:465';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${shape} (it is not a URL)`);
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new ConfigError(`${shape} (it starts with ${url.protocol}//)`);
  }
  if (!url.hostname) throw new ConfigError(`${shape} (it names no host)`);
  if (url.pathname !== '' && url.pathname !== '/') {
    throw new ConfigError(`${shape} (with no path after the host)`);
  }
  const secure = url.protocol === 'smtps:';
  let starttls: MailConfig['starttls'] = 'required';
  for (const [key, setting] of url.searchParams) {
    if (key !== 'starttls' || secure || !(STARTTLS_MODES as readonly string[]).includes(setting)) {
      throw new ConfigError(
        'SMTP_URL takes one setting, and only with smtp://: ?starttls=required (the ' +
          'default), ?starttls=optional or ?starttls=off',
      );
    }
    starttls = setting as MailConfig['starttls'];
  }
  const from = env.MAIL_FROM ?? '';
  const addresses = from ? addressparser(from, { flatten: true }) : [];
  if (addresses.length !== 1 || !/^[^\s@]+@[^\s@]+$/.test(addresses[0]?.address ?? '')) {
    throw new ConfigError(
      `MAIL_FROM must be one address mail is sent from, like "Kin Health <kin@example.com>"${
        from ? `, not "${from}"` : ' (SMTP_URL is set)'
      }`,
    );
  }
  if (!env.BASE_URL) {
    throw new ConfigError(
      'BASE_URL must be set when SMTP_URL is: the links in mail point to it (e.g. https://health.example.com)',
    );
  }
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    starttls,
    user: url.username ? decodeURIComponent(url.username) : null,
    password: url.password ? decodeURIComponent(url.password) : null,
    from,
  };
}

/**
 * Single sign-on (OpenID Connect, CONTRACT.md §5 'Passkeys and single sign-on'): the
 * provider's issuer (its discovery document is at {OIDC_ISSUER}/.well-known/openid-configuration),
 * this server's client id and secret there, the name on the button, and whether the provider
 * alone decides who may have an account (OIDC_TRUSTED=true: no passcode for a first sign-in).
 */
export interface SingleSignOnConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  name: string;
  trusted: boolean;
}

export const DEFAULT_SINGLE_SIGN_ON_NAME = 'Single Sign-On';

const singleSignOnEnv = z.object({
  OIDC_ISSUER: z
    .string()
    .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
      message:
        "OIDC_ISSUER must be the identity provider's issuer URL, like https://auth.example.com/application/o/kin/",
    })
    .refine((value) => !URL.canParse(value) || !new URL(value).search, {
      message: 'OIDC_ISSUER must not carry a query (?…)',
    }),
  OIDC_CLIENT_ID: z
    .string({
      error:
        'OIDC_CLIENT_ID must be set when OIDC_ISSUER is: the client id given by the identity provider',
    })
    .min(
      1,
      'OIDC_CLIENT_ID must be set when OIDC_ISSUER is: the client id given by the identity provider',
    ),
  OIDC_CLIENT_SECRET: z
    .string({
      error:
        'OIDC_CLIENT_SECRET must be set when OIDC_ISSUER is: the client secret given by the identity provider',
    })
    .min(
      1,
      'OIDC_CLIENT_SECRET must be set when OIDC_ISSUER is: the client secret given by the identity provider',
    ),
  OIDC_NAME: z
    .string()
    .trim()
    .max(40, 'OIDC_NAME must be at most 40 characters (it is shown on the sign-in button)')
    .optional(),
  OIDC_TRUSTED: z
    .enum(['true', 'false', ''], { error: 'OIDC_TRUSTED must be true or false' })
    .optional(),
});

/** OIDC_*: all of issuer, client id and secret, or none (single sign-on is then off). */
export function parseSingleSignOnConfig(env: Env): SingleSignOnConfig | null {
  const given = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'].filter((key) => env[key]);
  if (!env.OIDC_ISSUER) {
    if (given.length) {
      throw new ConfigError(
        `OIDC_ISSUER must be set when ${given.join(' and ')} is (single sign-on)`,
      );
    }
    return null;
  }
  const parsed = singleSignOnEnv.safeParse({
    OIDC_ISSUER: env.OIDC_ISSUER,
    OIDC_CLIENT_ID: env.OIDC_CLIENT_ID || undefined,
    OIDC_CLIENT_SECRET: env.OIDC_CLIENT_SECRET || undefined,
    OIDC_NAME: env.OIDC_NAME,
    OIDC_TRUSTED: env.OIDC_TRUSTED,
  });
  if (!parsed.success)
    throw new ConfigError(parsed.error.issues[0]?.message ?? 'OIDC_* is not valid');
  const { data } = parsed;
  return {
    issuer: data.OIDC_ISSUER.replace(/\/+$/, ''),
    clientId: data.OIDC_CLIENT_ID,
    clientSecret: data.OIDC_CLIENT_SECRET,
    name: data.OIDC_NAME || DEFAULT_SINGLE_SIGN_ON_NAME,
    trusted: data.OIDC_TRUSTED === 'true',
  };
}

/** VAPID: the key pair push services know this server by, and a contact for them. */
export interface VapidConfig {
  publicKey: string;
  privateKey: string;
  /** A `mailto:` or `https:` address the push services may write to. */
  subject: string;
}

/** Where generated VAPID keys are kept, in DATA_DIR. */
export const VAPID_FILE_NAME = 'vapid-keys';

/** Backups of the embedded SQLite database (docs/operations.md, "Backups"). */
export interface BackupConfig {
  /** BACKUP_DIR, or DATA_DIR/backups. */
  dir: string;
  /** BACKUP_TIME: the daily backup's local time of day. */
  time: { hour: number; minute: number };
  /** BACKUP_KEEP_DAILY: days whose newest backup is kept (at least 1). */
  keepDaily: number;
  /** BACKUP_KEEP_WEEKLY: ISO weeks before those days whose newest backup is kept. */
  keepWeekly: number;
}

export class ConfigError extends Error {}

/** A part's parsed value, its error a ConfigError. */
function configured<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new ConfigError(error instanceof Error ? error.message : String(error));
  }
}

/** Where a generated Friends & Family Passcode is kept, in DATA_DIR. */
export const PASSCODE_FILE_NAME = 'family-passcode';

type Env = Record<string, string | undefined>;

/** A new Friends & Family Passcode: six random digits, leading zeros kept. */
export function generatePasscode(): string {
  return String(randomInt(0, 10 ** PASSCODE_LENGTH)).padStart(PASSCODE_LENGTH, '0');
}

/**
 * Replaces the passcode kept in DATA_DIR: written beside it, synced and renamed into
 * place, so a crash leaves the old file or the new one, never half of one. Owner-only.
 */
export function writePasscodeFile(dataDir: string, passcode: string): string {
  const file = path.join(dataDir, PASSCODE_FILE_NAME);
  const temporary = `${file}.${process.pid}.tmp`;
  rmSync(temporary, { force: true });
  try {
    const fd = openSync(temporary, 'w', 0o600);
    try {
      writeFileSync(fd, `${passcode}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
  } finally {
    rmSync(temporary, { force: true });
  }
  return file;
}

/** The passcode kept in DATA_DIR, or null when there is no file. */
export function readPasscodeFile(dataDir: string): string | null {
  const file = path.join(dataDir, PASSCODE_FILE_NAME);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : null;
}

function readOrCreateSecret(dataDir: string, fileName: string, create: () => string) {
  const file = path.join(dataDir, fileName);
  if (existsSync(file)) {
    return { value: readFileSync(file, 'utf8').trim(), created: false };
  }
  const value = create();
  writeFileSync(file, `${value}\n`, { mode: 0o600, flag: 'wx' });
  return { value, created: true };
}

function parsePort(value: string | undefined): number {
  if (value === undefined || value === '') return 3000;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT must be a whole number from 0 to 65535, not "${value}"`);
  }
  return port;
}

/** A whole number of days from 1 up, or the default when unset. */
function parseDays(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const days = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(days) || days < 1) {
    throw new ConfigError(`${name} must be a whole number of days (1 or more), not "${value}"`);
  }
  return days;
}

function parseMegabytes(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const megabytes = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(megabytes) || megabytes < 1) {
    throw new ConfigError(
      `${name} must be a whole number of megabytes (1 or more), not "${value}"`,
    );
  }
  return megabytes;
}

/**
 * OCR_LANGUAGES: Tesseract's language codes joined by `+` or `,` ('eng+deu'); each one's data
 * comes from its npm package `@tesseract.js-data/<code>`, never from the network.
 */
export function parseOcrLanguages(value: string | undefined): string[] {
  if (value === undefined || value.trim() === '') return ['eng'];
  const languages = value.split(/[+,]/).map((language) => language.trim());
  for (const language of languages) {
    if (!/^[a-z]{3}(_[a-z]+)?$/.test(language)) {
      throw new ConfigError(
        `OCR_LANGUAGES must be Tesseract language codes joined by + (e.g. eng+deu), not "${value}"`,
      );
    }
  }
  return [...new Set(languages)];
}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,62})(\.[a-z0-9_]([a-z0-9_-]{0,62}))*$/;

/**
 * NOTIFY_ALLOWED_HOSTS: host names or addresses separated by commas (`ntfy.lan, 192.168.1.20,
 * [fd00::5]`), written as a URL's host is compared with them: lower case, no brackets, no
 * final dot, no port.
 */
export function parseNotifyAllowedHosts(value: string | undefined): string[] {
  if (value === undefined || value.trim() === '') return [];
  const hosts = value.split(',').map((host) =>
    host
      .trim()
      .toLowerCase()
      .replace(/^\[(.*)\]$/, '$1')
      .replace(/\.$/, ''),
  );
  for (const host of hosts) {
    if (!isIP(host) && !HOST_NAME.test(host)) {
      throw new ConfigError(
        `NOTIFY_ALLOWED_HOSTS must be host names or addresses separated by commas (e.g. ntfy.lan,192.168.1.20), without a scheme or port; "${host}" is not one`,
      );
    }
  }
  return [...new Set(hosts)];
}

/** The default of PASSCODE_GUESS_LIMIT: 50 wrong passcodes an hour on the whole server. */
export const DEFAULT_PASSCODE_GUESS_LIMIT: RateLimitConfig = { max: 50, windowSeconds: 3600 };

/**
 * A limit such as `AUTH_RATE_LIMIT` or `PASSCODE_GUESS_LIMIT`: `off` or `max/seconds`, e.g.
 * `10/60`, with at least one second.
 */
export function parseRateLimit(
  name: string,
  value: string | undefined,
  fallback: RateLimitConfig,
): RateLimitConfig | null {
  if (value === undefined || value === '') return fallback;
  if (value === 'off') return null;
  const match = /^(\d+)\/(\d+)$/.exec(value);
  if (!match || Number(match[2]) < 1)
    throw new ConfigError(`${name} must be "off" or "max/seconds", not "${value}"`);
  return { max: Number(match[1]), windowSeconds: Number(match[2]) };
}

/** Names a browser treats as secure over plain http (the WebAuthn spec's "localhost"). */
const LOCAL_NAME = /^(?:localhost|[^.]+(?:\.[^.]+)*\.localhost)$/i;

/**
 * PASSKEYS: on unless `off`. On, with BASE_URL set, the server must be reachable where a
 * browser allows passkeys: by a name (not an IP address), over https unless on localhost.
 * Otherwise every passkey would fail in the browser, so the start stops and says why.
 */
export function parsePasskeys(env: Env): boolean {
  const value = env.PASSKEYS ?? '';
  if (value === 'off') return false;
  if (value !== '' && value !== 'on') {
    throw new ConfigError(`PASSKEYS must be "on" or "off", not "${value}"`);
  }
  if (!env.BASE_URL) return true;
  // Not a URL: nothing to check here (the vitest runner sets BASE_URL to '/', for one).
  if (!URL.canParse(env.BASE_URL)) return true;
  const url = new URL(env.BASE_URL);
  const host = url.hostname;
  const advice = 'or set PASSKEYS=off to start without passkeys';
  if (/^[\d.]+$/.test(host) || host.startsWith('[')) {
    throw new ConfigError(
      `BASE_URL names the server by an IP address (${host}); browsers only allow passkeys for a name such as health.example.com. Use a name, ${advice}`,
    );
  }
  if (url.protocol !== 'https:' && !LOCAL_NAME.test(host)) {
    throw new ConfigError(
      `BASE_URL is plain http on ${host}; browsers only allow passkeys over https (or on localhost). Serve it over https, ${advice}`,
    );
  }
  return true;
}

export function loadConfig(env: Env = process.env): AppConfig {
  const dataDir = path.resolve(env.DATA_DIR || './data');
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });

  const databaseUrl = env.DATABASE_URL || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError(
      'DATABASE_URL must start with postgres:// (or leave it unset for SQLite)',
    );
  }

  let familyPasscode: string;
  let familyPasscodeGenerated = false;
  if (env.FAMILY_PASSCODE) {
    if (!isWellFormedPasscode(env.FAMILY_PASSCODE)) {
      throw new ConfigError(`FAMILY_PASSCODE: ${PASSCODE_FORMAT_MESSAGE}`);
    }
    familyPasscode = env.FAMILY_PASSCODE;
  } else {
    const secret = readOrCreateSecret(dataDir, PASSCODE_FILE_NAME, generatePasscode);
    if (!isWellFormedPasscode(secret.value)) {
      throw new ConfigError(
        `${path.join(dataDir, PASSCODE_FILE_NAME)}: ${PASSCODE_FORMAT_MESSAGE}`,
      );
    }
    familyPasscode = secret.value;
    familyPasscodeGenerated = secret.created;
  }

  const authSecret =
    env.AUTH_SECRET ||
    readOrCreateSecret(dataDir, 'auth-secret', () => randomBytes(32).toString('base64url')).value;
  if (authSecret.length < 32) throw new ConfigError('AUTH_SECRET must be at least 32 characters');

  return {
    port: parsePort(env.PORT),
    host: env.HOST || '127.0.0.1',
    dataDir,
    databaseUrl,
    familyPasscode,
    familyPasscodeFrom: env.FAMILY_PASSCODE ? 'FAMILY_PASSCODE' : 'file',
    familyPasscodeGenerated,
    authSecret,
    baseUrl: env.BASE_URL ? env.BASE_URL.replace(/\/+$/, '') : null,
    trustProxy: env.TRUST_PROXY === 'true' || env.TRUST_PROXY === '1',
    passkeys: parsePasskeys(env),
    rateLimit: parseRateLimit('AUTH_RATE_LIMIT', env.AUTH_RATE_LIMIT, {
      max: 10,
      windowSeconds: 60,
    }),
    passcodeGuessLimit: parseRateLimit(
      'PASSCODE_GUESS_LIMIT',
      env.PASSCODE_GUESS_LIMIT,
      DEFAULT_PASSCODE_GUESS_LIMIT,
    ),
    sessionMaxAgeDays: parseDays('SESSION_MAX_AGE_DAYS', env.SESSION_MAX_AGE_DAYS, 30),
    auditRetentionDays: parseDays('AUDIT_RETENTION_DAYS', env.AUDIT_RETENTION_DAYS, 365),
    passwordHashing: DEFAULT_HASH_COST,
    logLevel: env.LOG_LEVEL || 'info',
    webDir: path.resolve(env.WEB_DIR || 'dist/web'),
    backup: parseBackupConfig(env, dataDir),
    vapid: loadVapidConfig(env, dataDir),
    pushEndpoints: 'public',
    notifyAllowedHosts: parseNotifyAllowedHosts(env.NOTIFY_ALLOWED_HOSTS),
    mail: parseMailConfig(env),
    singleSignOn: parseSingleSignOnConfig(env),
    smartProviders: configured(() => parseSmartProviders(env.SMART_PROVIDERS)),
    connectionsDueCheckMs: DUE_CHECK_MS,
    documentQuotaMb: parseMegabytes(
      'DOCUMENT_QUOTA_MB',
      env.DOCUMENT_QUOTA_MB,
      DEFAULT_DOCUMENT_QUOTA_MB,
    ),
    ocrLanguages: parseOcrLanguages(env.OCR_LANGUAGES),
  };
}

/**
 * VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (both or neither), or a key pair made once and kept
 * in DATA_DIR: a new pair would cut every device's subscription off.
 */
export function loadVapidConfig(env: Env, dataDir: string): VapidConfig {
  let keys: { publicKey: string; privateKey: string };
  if (env.VAPID_PUBLIC_KEY || env.VAPID_PRIVATE_KEY) {
    if (!env.VAPID_PUBLIC_KEY || !env.VAPID_PRIVATE_KEY) {
      throw new ConfigError('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together');
    }
    keys = { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY };
  } else {
    const secret = readOrCreateSecret(dataDir, VAPID_FILE_NAME, () =>
      JSON.stringify(webPush.generateVAPIDKeys()),
    );
    try {
      keys = JSON.parse(secret.value) as typeof keys;
    } catch {
      throw new ConfigError(`${path.join(dataDir, VAPID_FILE_NAME)} is not a VAPID key pair`);
    }
  }
  if (!/^[\w-]{87}$/.test(keys.publicKey) || !/^[\w-]{43}$/.test(keys.privateKey)) {
    throw new ConfigError('The VAPID keys must be URL-safe base64 (as web-push makes them)');
  }
  const subject = env.VAPID_SUBJECT || 'mailto:kin-health@example.invalid';
  if (!/^(mailto:|https:\/\/)/.test(subject)) {
    throw new ConfigError(`VAPID_SUBJECT must be a mailto: or https:// address, not "${subject}"`);
  }
  return { ...keys, subject };
}

/** `BACKUP_TIME` is `HH:MM`, 24-hour, local time. */
function parseBackupTime(value: string | undefined): BackupConfig['time'] {
  if (value === undefined || value === '') return { hour: 3, minute: 0 };
  const match = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(value);
  if (!match) throw new ConfigError(`BACKUP_TIME must be HH:MM (24-hour), not "${value}"`);
  return { hour: Number(match[1]), minute: Number(match[2]) };
}

function parseKeepCount(name: string, value: string | undefined, fallback: number, min: number) {
  if (value === undefined || value === '') return fallback;
  const count = Number(value);
  if (!/^\d+$/.test(value) || count < min || count > 1000) {
    throw new ConfigError(`${name} must be a whole number from ${min} to 1000, not "${value}"`);
  }
  return count;
}

export function parseBackupConfig(env: Env, dataDir: string): BackupConfig {
  return {
    dir: env.BACKUP_DIR ? path.resolve(env.BACKUP_DIR) : path.join(dataDir, 'backups'),
    time: parseBackupTime(env.BACKUP_TIME),
    // At least one: the newest good backup is never deleted.
    keepDaily: parseKeepCount('BACKUP_KEEP_DAILY', env.BACKUP_KEEP_DAILY, 7, 1),
    keepWeekly: parseKeepCount('BACKUP_KEEP_WEEKLY', env.BACKUP_KEEP_WEEKLY, 4, 0),
  };
}

/** What the operator commands (`npm run kin`) need: no secrets, nothing created. */
export type OperationsConfig = Pick<AppConfig, 'dataDir' | 'databaseUrl' | 'logLevel' | 'backup'>;

export function loadOperationsConfig(env: Env = process.env): OperationsConfig {
  const dataDir = path.resolve(env.DATA_DIR || './data');
  return {
    dataDir,
    databaseUrl: env.DATABASE_URL || null,
    // Commands talk to a person; their logs say only what went wrong, unless asked.
    logLevel: env.LOG_LEVEL || 'warn',
    backup: parseBackupConfig(env, dataDir),
  };
}
