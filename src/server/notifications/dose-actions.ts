/**
 * A dose reminder's 'Taken' and 'Skip' buttons on the account's ntfy topic and webhook: each
 * is a link, `/api/dose-actions/{token}`, that marks the reminder's doses with no sign-in.
 *
 * - The token is 32 random bytes, kept only as its SHA-256 (as a calendar link's), made as
 *   the notification is sent (none waits in the queue), and it reaches only the doses of its
 *   reminder: those medications, on that day, at that time of day, marked as their owner.
 * - It is used once: the row is used up in the same transaction as the marks, and so are the
 *   other buttons of the same reminder (`group_key`). It expires at the end of the dose's day
 *   (in the account's time zone) and ACTION_SLACK_MS more.
 * - Only a POST marks (ntfy's `http` action posts). A GET, as a browser or a link preview
 *   makes, answers a page with a button that posts, and marks nothing.
 * - Every use is limited per address and written to the audit log, a refused one too; the
 *   token itself is never logged (the request log writes the route's pattern).
 */
import { randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';
import type { Kysely } from 'kysely';
import { DOSE_SLOTS, type DoseSlot } from '../../shared/doses';
import { DOSE_ACTIONS } from '../../shared/notification-channels';
import { ApiError } from '../../shared/api-error';
import {
  ownAccess,
  ownedRow,
  rowsByCapability,
  updateByCapability,
  updateOwned,
} from '../access/scope';
import { recordAuditEventOrLog } from '../audit/audit-log';
import { hashToken, TOKEN_PATTERN } from '../calendar/calendar-links';
import type { DB } from '../db/schema';
import { createDoseRepository } from '../doses/dose-repository';
import { CLIENT_IP_HEADER } from '../http/client-ip';
import type { AppEnv } from '../http/env';
import type { AttemptLimits, AttemptRule } from '../limits/attempt-limits';
import type { Logger } from '../logger';
import { addDays } from '../../shared/date-values';
import { instantOf } from '../reminders/time-zones';
import { currentLanguage, key, tr } from '../../shared/i18n/translate';
import { languageOf } from '../../shared/i18n/languages';
import { createAccountRepository } from '../account/account-repository';
import { inLanguage, languageInForce } from '../i18n/server-language';

export const DOSE_ACTIONS_PATH = '/api/dose-actions';
/** How long after the end of the dose's day its buttons still work. */
export const ACTION_SLACK_MS = 12 * 60 * 60 * 1000;
/** Per address: a family taps a few buttons a day. */
export const DOSE_ACTION_LIMIT: AttemptRule = { max: 30, windowSeconds: 60 };

/** The doses a reminder's buttons mark. */
export interface DoseActionGroup {
  /** The medications' owner: the marks are theirs. */
  owner: string;
  medication_ids: string[];
  day: string;
  slot: DoseSlot;
  /** The reminder the buttons belong to: using one uses every one of the group. */
  group_key: string;
  /** The account's time zone, in which the day ends. */
  time_zone: string;
}

/** When a reminder's buttons stop working. */
export function actionsExpireAt(group: Pick<DoseActionGroup, 'day' | 'time_zone'>): Date {
  const endOfDay = instantOf(group.time_zone, addDays(group.day, 1), '00:00');
  return new Date(endOfDay.getTime() + ACTION_SLACK_MS);
}

interface TokenRow {
  user_id: string;
  group_key: string;
  medication_ids: string;
  day: string;
  slot: string;
  status: string;
  expires_at: string;
  used_at: string | null;
}

const TOKEN_COLUMNS = [
  'user_id',
  'group_key',
  'medication_ids',
  'day',
  'slot',
  'status',
  'expires_at',
  'used_at',
] as const;

export function createDoseActions(db: Kysely<DB>) {
  return {
    /** The buttons of one reminder: a new token for each, kept as its hash. */
    async makeButtons(
      group: DoseActionGroup,
    ): Promise<{ label: string; status: string; token: string }[]> {
      const expires = actionsExpireAt(group).toISOString();
      const buttons = DOSE_ACTIONS.map((action) => ({
        ...action,
        token: randomBytes(32).toString('base64url'),
      }));
      await db
        .insertInto('dose_action_tokens')
        .values(
          buttons.map(({ status, token }) =>
            ownedRow(group.owner, {
              token_hash: hashToken(token),
              group_key: group.group_key,
              medication_ids: JSON.stringify(group.medication_ids),
              day: group.day,
              slot: group.slot,
              status,
              expires_at: expires,
              used_at: null,
            }),
          ),
        )
        .execute();
      return buttons;
    },

    /** The button a token is, unused and unexpired or not; undefined for a wrong token. */
    async find(token: string): Promise<TokenRow | undefined> {
      if (!TOKEN_PATTERN.test(token)) return undefined;
      return (await rowsByCapability(db, 'dose_action_tokens', hashToken(token))
        .select(TOKEN_COLUMNS)
        .executeTakeFirst()) as TokenRow | undefined;
    },

    /**
     * Uses a button: its doses marked, and it and its reminder's other buttons used up, all
     * in one transaction. Undefined when the token is wrong, used or expired.
     */
    async use(
      token: string,
      now = new Date(),
    ): Promise<{ row: TokenRow; marked: number } | undefined> {
      if (!TOKEN_PATTERN.test(token)) return undefined;
      const at = now.toISOString();
      return db.transaction().execute(async (trx) => {
        const row = (await updateByCapability(trx, 'dose_action_tokens', hashToken(token))
          .set({ used_at: at })
          .where('used_at', 'is', null)
          .where('expires_at', '>', at)
          .returning(TOKEN_COLUMNS)
          .executeTakeFirst()) as TokenRow | undefined;
        if (!row) return undefined;
        await updateOwned(trx, 'dose_action_tokens', row.user_id)
          .set({ used_at: at })
          .where('group_key', '=', row.group_key)
          .where('used_at', 'is', null)
          .execute();
        const doses = createDoseRepository(trx);
        const slot = row.slot as DoseSlot;
        if (!DOSE_SLOTS.includes(slot)) return { row, marked: 0 };
        let marked = 0;
        for (const medicationId of JSON.parse(row.medication_ids) as string[]) {
          try {
            const mark = await doses.mark(ownAccess(row.user_id), {
              medication_id: medicationId,
              day: row.day,
              slot,
              status: row.status as 'taken' | 'skipped',
            });
            if (mark) marked += 1;
          } catch (error) {
            // Changed since the reminder (no longer due then): the others are still marked.
            if (!(error instanceof ApiError)) throw error;
          }
        }
        return { row, marked };
      });
    },

    /** Buttons past their end, of every account: no use to anyone. */
    async prune(now = new Date()): Promise<void> {
      await db
        .deleteFrom('dose_action_tokens')
        .where('expires_at', '<', now.toISOString())
        .execute();
    },
  };
}

export type DoseActions = ReturnType<typeof createDoseActions>;

const page = (title: string, inner: string) =>
  `<!doctype html><html lang="${currentLanguage()}"${languageOf(currentLanguage()).dir === 'rtl' ? ' dir="rtl"' : ''}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title></head><body><main><h1>${title}</h1>${inner}</main></body></html>`;

// Keys: shown in the account's language (else the request's), through `tr`.
const WORDS: Record<string, { verb: string; done: string }> = {
  taken: { verb: key('Mark as taken'), done: key('Marked as taken') },
  skipped: { verb: key('Mark as skipped'), done: key('Marked as skipped') },
};

const GONE = key('This link has been used or has expired');

/** The dose's words on the page, by its time of day. */
const DOSE_OF_DAY: Record<string, string> = {
  Morning: key('Morning dose of {day}.'),
  Noon: key('Noon dose of {day}.'),
  Evening: key('Evening dose of {day}.'),
  Night: key('Night dose of {day}.'),
};

/** The routes, mounted before the session guard: the token is the key. */
export function doseActionRoutes(db: Kysely<DB>, limits: AttemptLimits, logger: Logger) {
  const actions = createDoseActions(db);
  const accounts = createAccountRepository(db);
  /** Runs `fn` in the language of the account the button is of (else the request's). */
  const inLanguageOf = async <T>(userId: string | null, fn: () => T): Promise<Awaited<T>> =>
    userId ? inLanguage(await accounts.languageOf(userId, languageInForce()), fn) : await fn();
  const wantsPage = (c: Context) => (c.req.header('accept') ?? '').includes('text/html');

  /** One use of the route counted against its address; a refusal answered and audited. */
  async function limited(c: Context): Promise<Response | null> {
    const headers = c.req.raw.headers;
    const allowed = await limits.consume({
      scope: 'address',
      subject: headers.get(CLIENT_IP_HEADER) ?? 'unknown',
      action: 'dose-action',
    });
    if (allowed.allowed) return null;
    await recordAuditEventOrLog(db, logger, headers, {
      event: 'too_many_attempts',
      detail: 'dose-action',
    });
    c.header('Retry-After', String(allowed.retryAfterSeconds));
    return c.text(tr('Too many requests'), 429);
  }

  const refused = async (c: Context, userId: string | null) => {
    await recordAuditEventOrLog(db, logger, c.req.raw.headers, {
      event: 'verification_failed',
      userId,
      detail: 'dose-action',
    });
    const status = userId ? 410 : 404;
    return inLanguageOf(userId, () =>
      wantsPage(c)
        ? c.html(page(tr(GONE), `<p>${tr('Open Kin Health to mark the dose.')}</p>`), status)
        : c.json({ message: tr(GONE) }, status),
    );
  };

  return new Hono<AppEnv>()
    .get('/:token', async (c) => {
      const tooMany = await limited(c);
      if (tooMany) return tooMany;
      const row = await actions.find(c.req.param('token'));
      if (!row) return refused(c, null);
      if (row.used_at || row.expires_at <= new Date().toISOString()) return refused(c, row.user_id);
      const words = WORDS[row.status] ?? WORDS.taken!;
      // A browser or a link preview opening the link marks nothing: the button posts.
      return inLanguageOf(row.user_id, () => {
        const dose = DOSE_OF_DAY[row.slot]
          ? tr(DOSE_OF_DAY[row.slot]!, { day: row.day })
          : `${row.slot} dose of ${row.day}.`;
        return c.html(
          page(
            'Kin Health',
            `<p>${dose}</p><form method="post"><button type="submit">${tr(words.verb)}</button></form>`,
          ),
        );
      });
    })
    .post('/:token', async (c) => {
      const tooMany = await limited(c);
      if (tooMany) return tooMany;
      const token = c.req.param('token');
      const used = await actions.use(token);
      if (!used) return refused(c, (await actions.find(token))?.user_id ?? null);
      await recordAuditEventOrLog(db, logger, c.req.raw.headers, {
        event: 'dose_marked_from_notification',
        userId: used.row.user_id,
        detail: used.row.status,
      });
      const words = WORDS[used.row.status] ?? WORDS.taken!;
      return inLanguageOf(used.row.user_id, () =>
        wantsPage(c)
          ? c.html(page(tr(words.done), `<p>${tr('You can close this page.')}</p>`))
          : c.json({ status: used.row.status, marked: used.marked }),
      );
    });
}
