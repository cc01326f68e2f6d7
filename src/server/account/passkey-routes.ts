/**
 * Profile Settings' 'Passkeys' (docs/decisions/0034-passkeys.md): the signed-in user's
 * passkeys, renamed, and removed after a fresh proof (the password, and the code with
 * two-factor sign-in on), as deleting the account asks. Adding one and signing in with one
 * are better-auth's ceremonies (auth/passkeys.ts); its own list, rename and delete routes
 * are not mounted, so these reach the table through the access module like every other
 * route.
 */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { freshProofSchema } from '../../shared/account-security';
import {
  PASSKEY_NOT_FOUND_MESSAGE,
  passkeyRenameSchema,
  type PasskeyListItem,
} from '../../shared/passkeys';
import { deleteOwned, ownedRows, updateOwned } from '../access/access';
import { recordAuditEventOrLog } from '../audit/audit-log';
import type { DB } from '../db/schema';
import type { AppEnv } from '../http/env';
import { notFound } from '../http/errors';
import { validate } from '../http/validation';
import type { Logger } from '../logger';
import type { RequireFreshProof } from './fresh-proof';

const iso = (value: Date | string | null) => (value ? new Date(value).toISOString() : null);

export function passkeyRoutes(deps: {
  db: Kysely<DB>;
  requireFreshProof: RequireFreshProof;
  logger: Logger;
}) {
  const { db, requireFreshProof, logger } = deps;

  const findOwn = (userId: string, id: string) =>
    ownedRows(db, 'passkey', userId).select(['id', 'name']).where('id', '=', id).executeTakeFirst();

  return new Hono<AppEnv>()
    .get('/passkeys', async (c) => {
      const rows = await ownedRows(db, 'passkey', c.var.user.id)
        .select(['id', 'name', 'createdAt', 'last_used_at'])
        .orderBy('createdAt')
        .orderBy('id')
        .execute();
      const body: PasskeyListItem[] = rows.map((row) => ({
        id: row.id,
        name: row.name ?? 'Passkey',
        created_at: iso(row.createdAt) ?? '',
        last_used_at: row.last_used_at,
      }));
      return c.json(body);
    })
    .patch('/passkeys/:id', validate('json', passkeyRenameSchema), async (c) => {
      const userId = c.var.user.id;
      const id = c.req.param('id');
      // Another user's passkey is answered like one that does not exist.
      if (!(await findOwn(userId, id))) throw notFound(PASSKEY_NOT_FOUND_MESSAGE);
      const { name } = c.req.valid('json');
      await updateOwned(db, 'passkey', userId).set({ name }).where('id', '=', id).execute();
      return c.json({ id, name });
    })
    .delete('/passkeys/:id', validate('json', freshProofSchema), async (c) => {
      const userId = c.var.user.id;
      const id = c.req.param('id');
      const passkey = await findOwn(userId, id);
      if (!passkey) throw notFound(PASSKEY_NOT_FOUND_MESSAGE);
      await requireFreshProof(c.req.raw.headers, userId, c.req.valid('json'), 'passkey-removal');
      await deleteOwned(db, 'passkey', userId).where('id', '=', id).execute();
      await recordAuditEventOrLog(db, logger, c.req.raw.headers, {
        event: 'passkey_removed',
        userId,
        detail: passkey.name,
      });
      return c.body(null, 204);
    });
}
