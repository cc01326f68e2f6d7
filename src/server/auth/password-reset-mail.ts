/**
 * The link of a password reset mail, made when the mail is sent: the mail queue's step for
 * 'password-reset' rows and the `kin reset-password` command both ask better-auth's own
 * endpoint for it (password-reset.ts says why the request itself makes no link). Kept apart
 * from the reset plugin, which the auth instance is built from, because this side calls
 * that instance.
 */
import { firstName } from '../../shared/names';
import type { MailPreparer } from '../mail/mail-queue';
import type { Auth } from './auth';
import { resetLinkMaking, type ResetLinkMaking } from './reset-link-context';

/** The page a reset link opens, with its token. */
export function resetLinkUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/reset-password?token=${encodeURIComponent(token)}`;
}

/**
 * A new reset link for the account with this email, through better-auth's flow (its token
 * stored hashed, valid for an hour), or null when no account has it.
 */
export async function makeResetLink(
  auth: Auth,
  email: string,
  baseUrl: string,
): Promise<{ userId: string; name: string; link: string } | null> {
  const making: ResetLinkMaking = {};
  // As if asked at the server's own address: better-auth wants one for any call.
  const headers = new Headers({ host: new URL(baseUrl).host });
  await resetLinkMaking.run(making, () =>
    auth.api.requestPasswordReset({ body: { email }, headers }),
  );
  if (!making.user || !making.token) return null;
  return {
    userId: making.user.id,
    name: making.user.name,
    link: resetLinkUrl(baseUrl, making.token),
  };
}

/** The queue's step that makes a reset mail's link when it is sent. */
export function resetMailPreparer(auth: Auth, baseUrl: string): MailPreparer<'password-reset'> {
  return async (row) => {
    const made = await makeResetLink(auth, row.recipient, baseUrl);
    return made && { userId: made.userId, params: { name: firstName(made.name), link: made.link } };
  };
}
