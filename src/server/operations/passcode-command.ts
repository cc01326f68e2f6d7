/**
 * `passcode [DIGITS]`: a new Friends & Family Passcode, the six digits given or six random
 * ones. It becomes the server's at once (auth/family-passcode.ts): the old passcode works
 * for nobody, every session ends, everyone signs in again with the new one, and records are
 * untouched; on every instance sharing the database, with no restart. It is written to
 * DATA_DIR/family-passcode, where the server reads it at start, so a restart keeps it, and
 * printed once. It runs while the server runs, on either engine, with the server's
 * variables.
 *
 * When the server takes its passcode from FAMILY_PASSCODE, the command refuses and says to
 * change the variable instead: every start makes FAMILY_PASSCODE's value the passcode, so a
 * passcode set here would last only until the next start (after a leak, the leaked one
 * would come back). That is known from this command's environment, or from the database,
 * where each start records where it took the passcode from.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { isWellFormedPasscode } from '../../shared/passcode';
import { changeFamilyPasscode, storedPasscode } from '../auth/family-passcode';
import { createPasswordHasher } from '../auth/password-hashing';
import { ConfigError, loadOperationsConfig, type OperationsConfig } from '../config';
import { openPostgres, openSqlite, SQLITE_FILE_NAME, type Database } from '../db/database';
import { migrationStatus } from '../db/migrate';
import { typedAs, type Command, type CommandContext } from './command';
import { DataDirBusyError, holdSharedLock } from './data-dir-lock';
import { generatePasscode, readPasscodeFile, writePasscodeFile } from './secrets';

const usage = (context: CommandContext) => `Usage: ${typedAs(context)} passcode [DIGITS]\n`;

const NOTHING_CHANGED = 'Nothing was changed.\n';

const SET_BY_VARIABLE =
  'Set FAMILY_PASSCODE to the new six digits where the server reads it, and restart the ' +
  'server: that start makes them the passcode and ends every session. With several ' +
  'instances, one restart is enough for the old passcode to stop working on all of them; ' +
  'give the others the new value before they restart.\n';

/** A reason to change nothing, said to the operator as it is. */
export class Refusal extends Error {}

/** The server's database, with the SQLite lock a backup command holds too. */
export function openServerDatabase(config: OperationsConfig): {
  database: Database;
  release(): void;
} {
  if (config.databaseUrl) {
    const database = openPostgres(config.databaseUrl, 1);
    return { database, release: () => {} };
  }
  const file = path.join(config.dataDir, SQLITE_FILE_NAME);
  if (!existsSync(file)) {
    throw new Refusal(
      `There is no database at ${file}. Set DATA_DIR as the server has it ` +
        '(or start Kin Health once first).',
    );
  }
  // Shared with a running server; keeps a restore from swapping the file meanwhile.
  const lock = holdSharedLock(config.dataDir);
  try {
    return { database: openSqlite(file), release: () => lock.release() };
  } catch (error) {
    lock.release();
    throw error;
  }
}

/** Whatever would make the change pointless or unsafe, before anything is written. */
async function checkDatabase(database: Database): Promise<void> {
  const { pending } = await migrationStatus(database.db);
  if (pending.length) {
    throw new Refusal(
      'The database has not been brought up to date for this version of Kin Health yet: ' +
        'start the server once (it migrates the database), then run this again.',
    );
  }
  if ((await storedPasscode(database.db))?.from === 'FAMILY_PASSCODE') {
    throw new Refusal(
      'The server took the Friends & Family Passcode from FAMILY_PASSCODE when it last ' +
        'started, and will again at its next start.\n' +
        SET_BY_VARIABLE.trimEnd(),
    );
  }
}

/**
 * Writes the file first: a file that cannot be written changes nothing, and a database
 * change that fails puts the old file back. (Written last, a failure would leave the old
 * passcode in the file for the next start to bring back.)
 */
async function changePasscode(
  database: Database,
  config: OperationsConfig,
  passcode: string,
): Promise<string> {
  const hash = await createPasswordHasher().hash(passcode);
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const previous = readPasscodeFile(config.dataDir);
  const file = writePasscodeFile(config.dataDir, passcode);
  try {
    await changeFamilyPasscode(database.db, { hash, source: 'command' });
  } catch (error) {
    if (previous === null) rmSync(file, { force: true });
    else writePasscodeFile(config.dataDir, previous);
    throw error;
  }
  return file;
}

function loadConfig(context: CommandContext): OperationsConfig {
  try {
    return loadOperationsConfig(context.env);
  } catch (error) {
    if (error instanceof ConfigError) throw new Refusal(`Configuration error: ${error.message}`);
    throw error;
  }
}

export const passcodeCommand: Command = {
  args: '[DIGITS]',
  summary:
    'a new Friends & Family Passcode (DIGITS, or six random digits); the old one stops ' +
    'working for everyone',
  async run(args, context) {
    const [digits, ...rest] = args;
    if (rest.length) {
      context.stderr.write(`${usage(context)}${NOTHING_CHANGED}`);
      return 2;
    }
    if (digits !== undefined && !isWellFormedPasscode(digits)) {
      context.stderr.write(
        'The Friends & Family Passcode must be exactly 6 digits (0 to 9), like 042917.\n' +
          `${usage(context)}${NOTHING_CHANGED}`,
      );
      return 2;
    }
    if (context.env.FAMILY_PASSCODE) {
      context.stderr.write(
        'FAMILY_PASSCODE is set: the server takes the Friends & Family Passcode from it at ' +
          `every start, so a passcode set here would be changed back by the next one.\n` +
          `${SET_BY_VARIABLE}${NOTHING_CHANGED}`,
      );
      return 1;
    }
    let opened: ReturnType<typeof openServerDatabase> | undefined;
    try {
      const config = loadConfig(context);
      opened = openServerDatabase(config);
      await checkDatabase(opened.database);
      const passcode = digits ?? generatePasscode();
      const file = await changePasscode(opened.database, config, passcode);
      context.stdout.write(
        `The new Friends & Family Passcode:\n\n  ${passcode}\n\n` +
          'It works from now on, on every instance, and the old one works for nobody: every ' +
          'session has ended, and everyone signs in again with this one. Records are ' +
          'untouched.\n' +
          `It is kept in ${file}, where the server reads it when it starts.\n`,
      );
      return 0;
    } catch (error) {
      if (error instanceof Refusal || error instanceof DataDirBusyError) {
        context.stderr.write(`${error.message}\n${NOTHING_CHANGED}`);
        return 1;
      }
      context.stderr.write(
        `The passcode could not be changed: ${error instanceof Error ? error.message : String(error)}\n` +
          NOTHING_CHANGED,
      );
      return 1;
    } finally {
      await opened?.database.close();
      opened?.release();
    }
  },
};
