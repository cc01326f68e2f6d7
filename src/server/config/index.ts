/**
 * Configuration from the environment (CONTRACT.md §1), read once at start-up through the zod
 * schemas beside this file, one per concern. Every variable is optional; a wrong one stops
 * the start with a ConfigError naming it. The secrets that are not given are created once
 * and kept in DATA_DIR by operations/secrets.ts; this module only reads what it gives.
 */
import path from 'node:path';
import type { PushEndpointPolicy } from '../reminders/push-endpoints';
import { DEFAULT_HASH_COST, type HashCost } from '../auth/password-hashing';
import type { PasscodeSource } from '../db/schema';
import { DUE_CHECK_MS, type SmartProvider } from '../connections/smart-providers';
import {
  makeDataDir,
  PASSCODE_FILE_NAME,
  readOrCreateAuthSecretFile,
  readOrCreatePasscodeFile,
} from '../operations/secrets';
import { PASSCODE_FORMAT_MESSAGE, isWellFormedPasscode } from '../../shared/passcode';
import { ConfigError, parseEnv, type Env } from './env';
import {
  authSecretEnv,
  authSecretSchema,
  databaseEnv,
  dataDirEnv,
  familyPasscodeEnv,
  serverEnv,
} from './server';
import { limitsEnv, type RateLimitConfig } from './limits';
import { parseBackupConfig, type BackupConfig } from './backup';
import { loadVapidConfig, notifyAllowedHostsEnv, type VapidConfig } from './push';
import { mailEnv, type MailConfig } from './mail';
import { parseSingleSignOnConfig, type SingleSignOnConfig } from './sso';
import { smartProvidersEnv } from './connections';
import { documentsEnv } from './documents';
import { memoryEnv, type MemoryPlan } from './memory';

export { ConfigError, parseBackupConfig };
export type { BackupConfig, MailConfig, RateLimitConfig, SingleSignOnConfig, VapidConfig };
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
  /** KIN_MEMORY_MB and what follows from it (config/memory.ts). */
  memory: MemoryPlan;
}

/** The passcode this configuration asks for: FAMILY_PASSCODE, or the one kept in DATA_DIR. */
function familyPasscodeOf(env: Env, dataDir: string) {
  const { FAMILY_PASSCODE } = parseEnv(familyPasscodeEnv, env);
  if (FAMILY_PASSCODE) {
    return { familyPasscode: FAMILY_PASSCODE, familyPasscodeGenerated: false };
  }
  const kept = readOrCreatePasscodeFile(dataDir);
  if (!isWellFormedPasscode(kept.value)) {
    throw new ConfigError(`${path.join(dataDir, PASSCODE_FILE_NAME)}: ${PASSCODE_FORMAT_MESSAGE}`);
  }
  return { familyPasscode: kept.value, familyPasscodeGenerated: kept.created };
}

export function loadConfig(env: Env = process.env): AppConfig {
  const { DATA_DIR: dataDir } = parseEnv(dataDirEnv, env);
  makeDataDir(dataDir);
  const { DATABASE_URL: databaseUrl } = parseEnv(databaseEnv, env);
  const passcode = familyPasscodeOf(env, dataDir);
  const { AUTH_SECRET: authSecret } = parseEnv(authSecretSchema, {
    AUTH_SECRET: parseEnv(authSecretEnv, env).AUTH_SECRET ?? readOrCreateAuthSecretFile(dataDir),
  });

  // The parts in the order they were always read, so the first wrong variable is named.
  const server = parseEnv(serverEnv, env);
  const limits = parseEnv(limitsEnv, env);
  const backup = parseBackupConfig(env, dataDir);
  const vapid = loadVapidConfig(env, dataDir);
  const { NOTIFY_ALLOWED_HOSTS: notifyAllowedHosts } = parseEnv(notifyAllowedHostsEnv, env);
  const mail = parseEnv(mailEnv, env);
  const singleSignOn = parseSingleSignOnConfig(env);
  const { SMART_PROVIDERS: smartProviders } = parseEnv(smartProvidersEnv, env);
  const documents = parseEnv(documentsEnv, env);
  const memory = parseEnv(memoryEnv, env);

  return {
    port: server.port,
    host: server.host,
    dataDir,
    databaseUrl,
    ...passcode,
    familyPasscodeFrom: env.FAMILY_PASSCODE ? 'FAMILY_PASSCODE' : 'file',
    authSecret,
    baseUrl: server.baseUrl,
    trustProxy: server.trustProxy,
    passkeys: server.passkeys,
    ...limits,
    passwordHashing: DEFAULT_HASH_COST,
    logLevel: server.logLevel,
    webDir: server.webDir,
    backup,
    vapid,
    pushEndpoints: 'public',
    notifyAllowedHosts,
    mail,
    singleSignOn,
    smartProviders,
    connectionsDueCheckMs: DUE_CHECK_MS,
    ...documents,
    memory,
  };
}

/** What the operator commands (`npm run kin`) need: no secrets, nothing created. */
export type OperationsConfig = Pick<AppConfig, 'dataDir' | 'databaseUrl' | 'logLevel' | 'backup'>;

export function loadOperationsConfig(env: Env = process.env): OperationsConfig {
  const { DATA_DIR: dataDir } = parseEnv(dataDirEnv, env);
  return {
    dataDir,
    // Taken as given: only the server's start checks its form.
    databaseUrl: env.DATABASE_URL || null,
    // Commands talk to a person; their logs say only what went wrong, unless asked.
    logLevel: env.LOG_LEVEL || 'warn',
    backup: parseBackupConfig(env, dataDir),
  };
}
