/**
 * Marks the mail sender's own call of better-auth's reset flow (password-reset.ts), and
 * carries what better-auth hands to `sendResetPassword` back to it. A request from a
 * browser never runs inside it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface ResetLinkMaking {
  user?: { id: string; name: string; email: string };
  token?: string;
}

export const resetLinkMaking = new AsyncLocalStorage<ResetLinkMaking>();

/** Whether this is the sender making a link for a request already counted and audited. */
export function isMakingResetLink(): boolean {
  return resetLinkMaking.getStore() !== undefined;
}
