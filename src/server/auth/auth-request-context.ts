/**
 * The passcode a sign-in or sign-up request carries, kept beside the request while
 * better-auth handles it: better-auth validates its own body fields and drops the rest,
 * but its database hooks must still see the passcode to decide whether to create anything.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface AuthRequestContext {
  passcode: string | null;
}

const storage = new AsyncLocalStorage<AuthRequestContext>();

export function withAuthRequestContext<T>(context: AuthRequestContext, run: () => T): T {
  return storage.run(context, run);
}

export function currentPasscode(): string | null {
  return storage.getStore()?.passcode ?? null;
}
