/**
 * Share links (CONTRACT.md §4 "Share"; SMART Health Links).
 *
 * The owner's routes, behind the session, under /api/share-links:
 *   POST   /                 a link: the JWE the browser made, the person, expiry, passcode
 *   GET    /                 the links that have not expired: the user's, and those the accounts
 *                            they shared a person with made of that person, each with its maker
 *   GET    /{id}/accesses    a link's access log (one of those links)
 *   DELETE /{id}             revoke: the ciphertext goes now; manifest and files answer 404
 *
 * A link's reader's routes, without a session, open to any origin (CORS), under /api/shl:
 *   POST   /{manifestId}     the manifest: {recipient, passcode?} → {files: [{location}]}
 *   GET    /files/{ticket}   the JWE, for an hour after the manifest named it
 * Both answer a link whose maker no longer may share its person as a revoked one, and revoke
 * it (maker-access.ts).
 */
import { Hono, type Context } from 'hono';
import type { Kysely } from 'kysely';
import {
  createShareLinkSchema,
  manifestRequestSchema,
  NO_LONGER_AVAILABLE,
  WRONG_PASSCODE,
  type CreatedShareLink,
} from '../../shared/share-links';
import { ownedRows } from '../access/scope';
import { recordAuditEvent, requestSource } from '../audit/audit-log';
import type { PasswordHasher } from '../auth/password-hashing';
import type { DB } from '../db/schema';
import type { AppEnv } from '../http/env';
import { CLIENT_IP_HEADER } from '../http/client-ip';
import { notFound } from '../http/errors';
import { validate, validationErrorBody } from '../http/validation';
import type { AttemptLimits } from '../limits/attempt-limits';
import { TOO_MANY_ATTEMPTS_MESSAGE } from '../limits/attempt-limits';
import { exportablePerson } from '../access/persons';
import { createMakerAccess } from './maker-access';
import { createShareLinkStore, type ShareLinkStore } from './share-link-store';
import { key, tr } from '../../shared/i18n/translate';

export const SHARE_API_PREFIX = '/api/shl/';
/** A reader's requests per address and per link, when limits are on (AUTH_RATE_LIMIT). */
export const SHARE_LINK_REQUEST_LIMIT = { max: 30, windowSeconds: 60 };
const DAY_MS = 24 * 60 * 60 * 1000;

export interface ShareLinkRouteDependencies {
  db: Kysely<DB>;
  store: ShareLinkStore;
  hasher: PasswordHasher;
  /** The origin this request was made to, as the browser saw it. */
  origin: (request: Request) => string;
}

/** An account's email, as a shared person's owner is told who made a link. */
async function emailOf(db: Kysely<DB>, userId: string): Promise<string> {
  const user = await ownedRows(db, 'user', userId).select('email').executeTakeFirst();
  return user?.email ?? '';
}

const manifestUrl = (origin: string, manifestId: string) =>
  `${origin}${SHARE_API_PREFIX}${manifestId}`;

export function shareLinkRoutes({ db, store, hasher, origin }: ShareLinkRouteDependencies) {
  const makers = createMakerAccess(db);
  return new Hono<AppEnv>()
    .post('/', validate('json', createShareLinkSchema), async (c) => {
      const input = c.req.valid('json');
      const owner = c.var.user.id;
      const { ownerId: personOwner, person } = await exportablePerson(
        db,
        await c.var.access(),
        input.person_id,
      );
      const passcodeHash = input.passcode ? await hasher.hash(input.passcode) : null;
      const row = await db.transaction().execute(async (trx) => {
        const created = await createShareLinkStore(trx).create(owner, {
          personId: person.id,
          familyMemberId: person.family_member_id,
          label: input.label,
          jwe: input.jwe,
          passcodeHash,
          expiresAt: new Date(Date.now() + input.expires_in_days * DAY_MS),
        });
        await recordAuditEvent(trx, {
          ...requestSource(c.req.raw.headers),
          event: 'share_link_created',
          userId: owner,
          detail: person.name,
        });
        // A shared person's owner learns of every link made of them.
        if (personOwner !== owner) {
          await recordAuditEvent(trx, {
            event: 'share_link_created',
            userId: personOwner,
            detail: `${person.name} · by ${await emailOf(trx, owner)}`,
          });
        }
        return created;
      });
      await store.pruneExpired();
      const answer: CreatedShareLink = {
        id: row.id,
        url: manifestUrl(origin(c.req.raw), row.manifest_id),
        exp: Math.floor(new Date(row.expires_at).getTime() / 1000),
        flag: passcodeHash ? 'P' : '',
        label: row.label,
      };
      return c.json(answer, 201);
    })
    .get('/', async (c) => {
      await store.pruneExpired();
      return c.json(await makers.settle(await store.list(c.var.user.id)));
    })
    .get('/:id/accesses', async (c) => {
      const user = c.var.user.id;
      const link = await store.find(user, c.req.param('id'));
      if (!link) throw notFound(key('Share link not found'));
      return c.json(await store.accesses(link.maker?.id ?? user, link.id));
    })
    .delete('/:id', async (c) => {
      const user = c.var.user.id;
      const link = await store.find(user, c.req.param('id'));
      if (!link) throw notFound(key('Share link not found'));
      const { maker } = link;
      await db.transaction().execute(async (trx) => {
        if (!(await createShareLinkStore(trx).revoke(maker?.id ?? user, link.id))) return;
        await recordAuditEvent(trx, {
          ...requestSource(c.req.raw.headers),
          event: 'share_link_revoked',
          userId: user,
          detail: maker ? `${link.label} · made by ${maker.email}` : link.label,
        });
        // A grantee learns that the person's owner revoked a link they made.
        if (maker) {
          await recordAuditEvent(trx, {
            event: 'share_link_revoked',
            userId: maker.id,
            detail: `${link.label} · by ${await emailOf(trx, user)}`,
          });
        }
      });
      return c.body(null, 204);
    });
}

const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Content-Type',
  'Access-Control-Max-Age': '600',
} as const;

function withCors(c: Context) {
  for (const [name, value] of Object.entries(CORS_HEADERS)) c.header(name, value);
}

export interface ShlRouteDependencies {
  db: Kysely<DB>;
  store: ShareLinkStore;
  hasher: PasswordHasher;
  limits: AttemptLimits;
  origin: (request: Request) => string;
}

/** The routes a link's reader calls, with no session: the only ones. */
export function shlRoutes({ db, store, hasher, limits, origin }: ShlRouteDependencies) {
  const makers = createMakerAccess(db);
  const gone = (c: Context) => c.json({ message: NO_LONGER_AVAILABLE }, 404);
  const tooMany = (c: Context, retryAfter: number) => {
    c.header('Retry-After', String(retryAfter));
    return c.json({ message: TOO_MANY_ATTEMPTS_MESSAGE }, 429);
  };

  /** Counts a request against its address; the refusal to send when too many came. */
  const limitByAddress = async (c: Context, ipAddress: string | null, action: string) => {
    const decision = await limits.consume({
      scope: 'address',
      subject: ipAddress ?? 'unknown',
      action,
    });
    return decision.allowed ? null : tooMany(c, decision.retryAfterSeconds);
  };

  return new Hono<AppEnv>()
    .use('*', async (c, next) => {
      withCors(c);
      await next();
      withCors(c);
    })
    .options('*', (c) => c.body(null, 204))
    .post('/:manifestId', async (c) => {
      const ipAddress = c.req.header(CLIENT_IP_HEADER) ?? null;
      const refused = await limitByAddress(c, ipAddress, 'share-manifest');
      if (refused) return refused;
      let body: unknown;
      try {
        body = await c.req.json();
      } catch {
        body = null;
      }
      const parsed = manifestRequestSchema.safeParse(body ?? {});
      if (!parsed.success) return c.json(validationErrorBody(parsed.error), 400);
      const { recipient, passcode } = parsed.data;
      await store.pruneExpired();
      const now = new Date();
      const link = await store.byManifestId(c.req.param('manifestId'));
      if (!link) return gone(c);
      const owner = link.user_id;
      const byLink = await limits.consume({
        scope: 'share-link',
        subject: link.id,
        action: 'manifest',
      });
      if (!byLink.allowed) return tooMany(c, byLink.retryAfterSeconds);
      const refuse = async () => {
        await store.recordAccess(owner, link.id, { recipient, outcome: 'refused', ipAddress });
        return gone(c);
      };
      if (link.revoked_at !== null || link.expires_at <= now.toISOString()) return refuse();
      // Its maker's access to the person, as it stands at this request.
      if (!(await makers.holds(link))) return refuse();
      if (link.passcode_hash !== null) {
        if (!passcode) {
          return c.json(
            { message: tr('Passcode is required'), remainingAttempts: Number(link.attempts_left) },
            401,
          );
        }
        if (!(await store.takeAttempt(owner, link.id))) return refuse();
        if (!(await hasher.verify({ hash: link.passcode_hash, password: passcode }))) {
          await store.recordAccess(owner, link.id, {
            recipient,
            outcome: 'wrong passcode',
            ipAddress,
          });
          const remainingAttempts = await store.attemptsLeft(owner, link.id);
          return c.json({ message: WRONG_PASSCODE, remainingAttempts }, 401);
        }
        await store.returnAttempt(owner, link.id);
      }
      const ticket = await store.issueFile(owner, link.id);
      await store.recordAccess(owner, link.id, { recipient, outcome: 'opened', ipAddress });
      return c.json({
        files: [
          {
            contentType: 'application/fhir+json',
            location: `${origin(c.req.raw)}${SHARE_API_PREFIX}files/${ticket}`,
          },
        ],
      });
    })
    .get('/files/:ticket', async (c) => {
      const ipAddress = c.req.header(CLIENT_IP_HEADER) ?? null;
      const refused = await limitByAddress(c, ipAddress, 'share-file');
      if (refused) return refused;
      const file = await store.fileContent(c.req.param('ticket'));
      if (!file || !(await makers.holds(file))) return gone(c);
      return c.body(file.jwe, 200, { 'Content-Type': 'application/jose' });
    });
}
