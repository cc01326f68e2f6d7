/**
 * A sign-up or sign-in that checked the Friends & Family Passcode leaves nothing behind if
 * the passcode changed while it was under way.
 *
 * A change (family-passcode.ts) replaces the hash and deletes every session and waiting
 * second factor in one transaction. A request that matched the old passcode just before
 * that commit could still write its account, its session or its second-factor challenge
 * just after it, where the change's deletes did not reach. So, once the request has written
 * everything, the passcode is read again: when it is no longer the one the request matched,
 * the rows the request created are deleted and it is refused as a wrong passcode.
 *
 * Why that closes the gap: a change writes the passcode's row before it deletes anything.
 * On SQLite, writes take turns: the request's writes came either before the change (and its
 * deletes removed them) or after its commit (and this read sees the new hash). On
 * PostgreSQL this read locks the row (FOR SHARE): it comes either before the change writes
 * the row, and then the request's writes, each committed already, are there for the
 * change's deletes; or after, and then it waits for the commit and sees the new hash.
 *
 * Among the plugins it comes after the two-factor plugin (whose after hook writes the
 * challenge) and before the audit plugin (which then records the refusal of a sign-in).
 */
import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthMiddleware, isAPIError } from 'better-auth/api';
import type { Kysely } from 'kysely';
import { INVALID_PASSCODE_MESSAGE } from '../../shared/passcode';
import { recordAuditEventOrLog } from '../audit/audit-log';
import type { DB, Engine } from '../db/schema';
import type { Logger } from '../logger';
import {
  checkedPasscodeHash,
  createdRows,
  noteCreatedRow,
  type CreatedRowTable,
} from './auth-request-context';
import { emailOf } from './credential-limits';
import { isStillFamilyPasscode } from './family-passcode';

const PASSCODE_CHECKED_PATHS = new Set([
  '/sign-up/email',
  '/sign-in/email',
  // A first single sign-on's passcode (single-sign-on.ts): an account made like a sign-up's.
  '/sso/finish-sign-up',
]);

/** The account first: deleting it takes its sessions with it. */
const CREATED_ROW_TABLES = ['user', 'session', 'verification'] as const;

const noteCreated =
  (table: CreatedRowTable) =>
  async (row: { id: string } | null): Promise<void> => {
    if (row) noteCreatedRow(table, row.id);
  };

export function passcodeStillCurrent(options: { db: Kysely<DB>; engine: Engine; logger: Logger }) {
  const { db, engine, logger } = options;

  return {
    id: 'kin-passcode-still-current',
    init() {
      return {
        options: {
          databaseHooks: {
            user: { create: { after: noteCreated('user') } },
            session: { create: { after: noteCreated('session') } },
            verification: { create: { after: noteCreated('verification') } },
          },
        },
      };
    },
    hooks: {
      after: [
        {
          matcher: (context) => PASSCODE_CHECKED_PATHS.has(context.path ?? ''),
          handler: createAuthMiddleware(async (ctx) => {
            const hash = checkedPasscodeHash();
            if (!hash || (await isStillFamilyPasscode(db, engine, hash))) return;
            const created = createdRows();
            for (const table of CREATED_ROW_TABLES) {
              const ids = created[table];
              if (ids.length) await db.deleteFrom(table).where('id', 'in', ids).execute();
            }
            ctx.context.setNewSession(null);
            // No cookie for what is gone.
            ctx.context.responseHeaders?.delete('set-cookie');
            const signUp = ctx.path !== '/sign-in/email';
            if (signUp && !isAPIError(ctx.context.returned)) {
              await recordAuditEventOrLog(db, logger, ctx.headers ?? ctx.request?.headers, {
                event: 'sign_up_failed',
                email: emailOf(ctx.body),
                detail: 'wrong_passcode',
              });
            }
            throw new APIError(signUp ? 'FORBIDDEN' : 'UNAUTHORIZED', {
              message: INVALID_PASSCODE_MESSAGE,
              field: 'passcode',
            });
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
