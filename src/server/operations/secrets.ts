/**
 * The secrets the server keeps in DATA_DIR when the environment does not give them: the
 * Friends & Family Passcode, the key that signs sessions and the VAPID key pair. Each is made
 * once with owner-only access and read back as it was written; the configuration
 * (config/index.ts) decides whether what it read is well formed.
 */
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
import webPush from 'web-push';
import { PASSCODE_LENGTH } from '../../shared/constants';

/** Where a generated Friends & Family Passcode is kept, in DATA_DIR. */
export const PASSCODE_FILE_NAME = 'family-passcode';

/** Where generated VAPID keys are kept, in DATA_DIR. */
export const VAPID_FILE_NAME = 'vapid-keys';

/** Where the generated key that signs sessions is kept, in DATA_DIR. */
const AUTH_SECRET_FILE_NAME = 'auth-secret';

/** A secret's text, and whether it was made (and so written) just now. */
export interface KeptSecret {
  value: string;
  created: boolean;
}

/** DATA_DIR, made owner-only when it does not exist yet: it holds the secrets below. */
export function makeDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
}

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

/** The secret kept in DATA_DIR/fileName, made by `create` and written owner-only if absent. */
function readOrCreateSecret(dataDir: string, fileName: string, create: () => string): KeptSecret {
  const file = path.join(dataDir, fileName);
  if (existsSync(file)) {
    return { value: readFileSync(file, 'utf8').trim(), created: false };
  }
  const value = create();
  writeFileSync(file, `${value}\n`, { mode: 0o600, flag: 'wx' });
  return { value, created: true };
}

/** The passcode kept in DATA_DIR, generated on the first start without FAMILY_PASSCODE. */
export function readOrCreatePasscodeFile(dataDir: string): KeptSecret {
  return readOrCreateSecret(dataDir, PASSCODE_FILE_NAME, generatePasscode);
}

/** The key that signs sessions, kept in DATA_DIR when AUTH_SECRET is not set. */
export function readOrCreateAuthSecretFile(dataDir: string): string {
  return readOrCreateSecret(dataDir, AUTH_SECRET_FILE_NAME, () =>
    randomBytes(32).toString('base64url'),
  ).value;
}

/**
 * The VAPID key pair kept in DATA_DIR as web-push's JSON, made once: a new pair would cut
 * every device's subscription off.
 */
export function readOrCreateVapidKeyFile(dataDir: string): string {
  return readOrCreateSecret(dataDir, VAPID_FILE_NAME, () =>
    JSON.stringify(webPush.generateVAPIDKeys()),
  ).value;
}
