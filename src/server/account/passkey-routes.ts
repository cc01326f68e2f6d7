/**
 * Profile Settings' 'Passkeys' (docs/decisions/0034-passkeys.md): the signed-in user's
 * passkeys, renamed, and removed after a fresh proof (the password, and the code with
 * two-factor sign-in on), as deleting the account asks. Adding one asks the same proof
 * first (decision 0048): POST /passkeys/registration-options checks it and only then hands
 * on better-auth's registration options (auth/passkeys.ts), whose challenge the device's
 * answer must carry. Signing in with one is better-auth's ceremony; its own list, rename
 * and delete routes are not mounted, so these reach the table through the access module
 * like every other route.
 */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { freshProofSchema } from '../../shared/account-security';
import { PASSKEY_NOT_FOUND_MESSAGE, passkeyRenameSchema } from '../../shared/passkeys';
import { deleteOwned, ownedRows, updateOwned } from '../access/scope';
import { recordAuditEventOrLog } from '../audit/audit-log';
import type { Auth } from '../auth/auth';
import { PASSKEY_REGISTER_OPTIONS_PATH, withPasskeyAdditionProven } from '../auth/passkeys';
import type { DB } from '../db/schema';
import type { AppEnv } from '../http/env';
import { notFound } from '../http/errors';
import { validate } from '../http/validation';
import type { Logger } from '../logger';
import type { RequireFreshProof } from './fresh-proof';
import { passkeysOf } from './account-repository';

/** The auth base path the plugin's routes live under. */
const AUTH_BASE_PATH = '/api/auth';

export function passkeyRoutes(deps: {
  db: Kysely<DB>;
  auth: Auth;
  requireFreshProof: RequireFreshProof;
  logger: Logger;
}) {
  const { db, auth, requireFreshProof, logger } = deps;

  const findOwn = (userId: string, id: string) =>
    ownedRows(db, 'passkey', userId).select(['id', 'name']).where('id', '=', id).executeTakeFirst();

  return (
    new Hono<AppEnv>()
      .get('/passkeys', async (c) => c.json(await passkeysOf(db, c.var.user.id)))
      .patch('/passkeys/:id', validate('json', passkeyRenameSchema), async (c) => {
        const userId = c.var.user.id;
        const id = c.req.param('id');
        // Another user's passkey is answered like one that does not exist.
        if (!(await findOwn(userId, id))) throw notFound(PASSKEY_NOT_FOUND_MESSAGE);
        const { name } = c.req.valid('json');
        await updateOwned(db, 'passkey', userId).set({ name }).where('id', '=', id).execute();
        return c.json({ id, name });
      })
      // Adding a passkey: the fresh proof, then better-auth's options and challenge (its
      // signed cookie), as its own route would answer them.
      .post('/passkeys/registration-options', validate('json', freshProofSchema), async (c) => {
        // PASSKEYS=off: nothing to add, and no proof asked for nothing.
        const { options } = await auth.$context;
        if (!options.plugins?.some((plugin) => plugin.id === 'passkey')) throw notFound();
        const session = { userId: c.var.user.id, sessionId: c.var.sessionId };
        await requireFreshProof(
          c.req.raw.headers,
          session,
          c.req.valid('json'),
          'passkey-addition',
        );
        const headers = new Headers(c.req.raw.headers);
        headers.delete('content-type');
        headers.delete('content-length');
        const url = new URL(AUTH_BASE_PATH + PASSKEY_REGISTER_OPTIONS_PATH, c.req.url);
        return withPasskeyAdditionProven(() => auth.handler(new Request(url, { headers })));
      })
      .delete('/passkeys/:id', validate('json', freshProofSchema), async (c) => {
        const userId = c.var.user.id;
        const id = c.req.param('id');
        const passkey = await findOwn(userId, id);
        if (!passkey) throw notFound(PASSKEY_NOT_FOUND_MESSAGE);
        await requireFreshProof(
          c.req.raw.headers,
          { userId, sessionId: c.var.sessionId },
          c.req.valid('json'),
          'passkey-removal',
        );
        await deleteOwned(db, 'passkey', userId).where('id', '=', id).execute();
        await recordAuditEventOrLog(db, logger, c.req.raw.headers, {
          event: 'passkey_removed',
          userId,
          detail: passkey.name,
        });
        return c.body(null, 204);
      })
  );
}
