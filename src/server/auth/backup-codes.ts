/**
 * Backup codes that a person can read off paper and type on a phone: ten codes of two
 * groups of five, from an alphabet without the characters that look alike (no 0 or O, no
 * 1, I or L), in capitals, and taken in any case: what is typed is trimmed and put in
 * capitals (shared/account-security.ts), and the stored codes are compared in capitals too,
 * so codes made before, in mixed case, keep working. Stored encrypted with the server's
 * secret, as better-auth stores them by default.
 */
import { randomInt } from 'node:crypto';
import { symmetricDecrypt, symmetricEncrypt } from 'better-auth/crypto';

/** Capitals and digits, less 0/O and 1/I/L. */
export const BACKUP_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODES = 10;
const GROUP = 5;

function group(): string {
  let text = '';
  for (let index = 0; index < GROUP; index += 1) {
    text += BACKUP_CODE_ALPHABET[randomInt(BACKUP_CODE_ALPHABET.length)];
  }
  return text;
}

export function generateBackupCodes(): string[] {
  return Array.from({ length: CODES }, () => `${group()}-${group()}`);
}

/** better-auth's backupCodeOptions: these codes, stored encrypted, compared in capitals. */
export function backupCodeOptions(secret: string) {
  return {
    customBackupCodesGenerate: generateBackupCodes,
    storeBackupCodes: {
      encrypt: (json: string) => symmetricEncrypt({ key: secret, data: json }),
      decrypt: async (stored: string) => {
        const codes: unknown = JSON.parse(await symmetricDecrypt({ key: secret, data: stored }));
        return JSON.stringify(
          Array.isArray(codes) ? codes.map((code) => String(code).toUpperCase()) : [],
        );
      },
    },
  };
}
