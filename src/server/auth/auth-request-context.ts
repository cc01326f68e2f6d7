/**
 * The passcode a sign-in or sign-up request carries, kept beside the request while
 * better-auth handles it: better-auth validates its own body fields and drops the rest,
 * but its database hooks must still see the passcode to decide whether to create anything.
 * Once the passcode is checked, the hash it matched and the rows the request then creates
 * are kept here too, so that they can be undone if the passcode changed meanwhile
 * (passcode-still-current.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** better-auth's tables whose new rows a passcode-checked request may have to undo. */
export type CreatedRowTable = 'user' | 'session' | 'verification';

export interface AuthRequestContext {
  passcode: string | null;
  /** The hash of the server's passcode that the request's passcode matched. */
  checkedPasscodeHash?: string;
  /** The ids of the rows created since the passcode was checked. */
  created?: Record<CreatedRowTable, string[]>;
}

const storage = new AsyncLocalStorage<AuthRequestContext>();

export function withAuthRequestContext<T>(context: AuthRequestContext, run: () => T): T {
  return storage.run(context, run);
}

/** The context of the auth request under way, if any (as a key for what others keep beside it). */
export function currentAuthRequest(): AuthRequestContext | undefined {
  return storage.getStore();
}

export function currentPasscode(): string | null {
  return storage.getStore()?.passcode ?? null;
}

/** Notes that the request's passcode matched the server's, hashed as `hash`. */
export function notePasscodeChecked(hash: string): void {
  const context = storage.getStore();
  if (!context) return;
  context.checkedPasscodeHash = hash;
  context.created = { user: [], session: [], verification: [] };
}

/** The hash the request's passcode matched, or null when it was not checked (or failed). */
export function checkedPasscodeHash(): string | null {
  return storage.getStore()?.checkedPasscodeHash ?? null;
}

/** Notes a row created by a request whose passcode was checked; other requests' are not kept. */
export function noteCreatedRow(table: CreatedRowTable, id: string): void {
  storage.getStore()?.created?.[table].push(id);
}

export function createdRows(): Record<CreatedRowTable, string[]> {
  return storage.getStore()?.created ?? { user: [], session: [], verification: [] };
}
