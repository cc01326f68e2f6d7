/**
 * A fresh proof that the person at the keyboard owns the account, asked before something
 * that cannot be undone or that opens a way in (deleting the account, removing or adding a
 * passkey, changing the email, signing out everywhere): the password, and with two-factor
 * sign-in on, a code from the authenticator app or one of the backup codes. Attempts are
 * limited per account and per address; a refusal is written to the audit log.
 *
 * An account with no password (made by single sign-on, perhaps with passkeys since) has
 * nothing to type: its proof is a sign-in of this very session within the last
 * RECENT_SIGN_IN_MINUTES (decision 0048). A session's `createdAt` is its sign-in; renewals
 * do not move it.
 *
 * The password is checked with better-auth's own hasher (the product's Argon2id); the code
 * through better-auth's own two-factor endpoints, called on the server, so an authenticator
 * code still works once (used-codes) and a backup code is used up.
 */
import { isAPIError } from 'better-auth/api';
import type { Kysely } from 'kysely';
import {
  CODE_REQUIRED_MESSAGE,
  PASSWORD_REQUIRED_MESSAGE,
  RECENT_SIGN_IN_MINUTES,
  RECENT_SIGN_IN_NEEDED_MESSAGE,
  WRONG_CODE_MESSAGE,
  WRONG_PASSWORD_MESSAGE,
  type FreshProofNeeds,
  type VerificationPurpose,
} from '../../shared/account-security';
import { ownedRows } from '../access/scope';
import { recordAuditEventOrLog } from '../audit/audit-log';
import type { Auth } from '../auth/auth';
import type { DB } from '../db/schema';
import { CLIENT_IP_HEADER } from '../http/client-ip';
import { ApiError } from '../../shared/api-error';
import { badRequest } from '../http/errors';
import { TOO_MANY_ATTEMPTS_MESSAGE, type AttemptLimits } from '../limits/attempt-limits';
import type { Logger } from '../logger';
import type { AccountRepository } from './account-repository';

const AUTHENTICATOR_CODE = /^\d{6}$/;

export interface FreshProofDependencies {
  db: Kysely<DB>;
  accounts: AccountRepository;
  auth: Auth;
  limits: AttemptLimits;
  logger: Logger;
}

export function freshProofChecker({ db, accounts, auth, limits, logger }: FreshProofDependencies) {
  async function refuse(
    headers: Headers,
    userId: string,
    purpose: VerificationPurpose,
    error: ApiError,
  ): Promise<never> {
    await recordAuditEventOrLog(db, logger, headers, {
      event: error.status === 429 ? 'too_many_attempts' : 'verification_failed',
      userId,
      detail: purpose,
    });
    throw error;
  }

  async function passwordMatches(userId: string, password: string): Promise<boolean> {
    const hash = await accounts.passwordHash(userId);
    if (!hash) return false;
    const context = await auth.$context;
    return context.password.verify({ hash, password });
  }

  async function codeMatches(headers: Headers, code: string): Promise<boolean> {
    try {
      if (AUTHENTICATOR_CODE.test(code)) {
        await auth.api.verifyTOTP({ headers, body: { code } });
      } else {
        await auth.api.verifyBackupCode({ headers, body: { code } });
      }
      return true;
    } catch (error) {
      if (isAPIError(error) && error.statusCode < 500) return false;
      throw error;
    }
  }

  /** Until when this session's sign-in proves a password-less account, or null. */
  async function recentSignInUntil(userId: string, sessionId: string): Promise<Date | null> {
    const session = await ownedRows(db, 'session', userId)
      .select('createdAt')
      .where('id', '=', sessionId)
      .executeTakeFirst();
    if (!session) return null;
    const until = new Date(new Date(session.createdAt).getTime() + RECENT_SIGN_IN_MINUTES * 60_000);
    return until.getTime() > Date.now() ? until : null;
  }

  /** Resolves when the proof holds; otherwise throws the refusal the route answers with. */
  async function requireFreshProof(
    headers: Headers,
    session: { userId: string; sessionId: string },
    proof: { password?: string | undefined; code?: string | undefined },
    purpose: VerificationPurpose,
  ): Promise<void> {
    const { userId } = session;
    const address = headers.get(CLIENT_IP_HEADER) ?? 'unknown';
    const decisions = await Promise.all([
      limits.consume({ scope: 'account', subject: userId, action: purpose }),
      limits.consume({ scope: 'address', subject: address, action: purpose }),
    ]);
    if (decisions.some((decision) => !decision.allowed)) {
      await refuse(headers, userId, purpose, new ApiError(429, TOO_MANY_ATTEMPTS_MESSAGE));
    }
    if (!(await accounts.passwordHash(userId))) {
      if (await recentSignInUntil(userId, session.sessionId)) return;
      await refuse(headers, userId, purpose, new ApiError(403, RECENT_SIGN_IN_NEEDED_MESSAGE));
    }
    if (proof.password === undefined) throw badRequest(PASSWORD_REQUIRED_MESSAGE, 'password');
    if (!(await passwordMatches(userId, proof.password))) {
      await refuse(headers, userId, purpose, new ApiError(403, WRONG_PASSWORD_MESSAGE, 'password'));
    }
    if (!(await accounts.twoFactorEnabled(userId))) return;
    if (!proof.code) throw badRequest(CODE_REQUIRED_MESSAGE, 'code');
    if (!(await codeMatches(headers, proof.code))) {
      await refuse(headers, userId, purpose, new ApiError(403, WRONG_CODE_MESSAGE, 'code'));
    }
  }

  /** What a fresh proof of the account takes, for the confirm dialogs. */
  async function freshProofNeeds(session: {
    userId: string;
    sessionId: string;
  }): Promise<FreshProofNeeds> {
    const { userId } = session;
    const [hash, code] = await Promise.all([
      accounts.passwordHash(userId),
      accounts.twoFactorEnabled(userId),
    ]);
    const until = hash ? null : await recentSignInUntil(userId, session.sessionId);
    return { password: !!hash, code, recent_sign_in_until: until?.toISOString() ?? null };
  }

  return Object.assign(requireFreshProof, { needs: freshProofNeeds });
}

export type RequireFreshProof = ReturnType<typeof freshProofChecker>;
