/**
 * The names the service worker and the page agree on. The worker keeps one cache, the app
 * shell's (the built files, the same for everyone); any other cache of this origin is not
 * the worker's and is deleted when a user signs out.
 */
export const SHELL_CACHE_PREFIX = 'kin-shell-';

/** A cache that holds only the built app, never anything of a user's. */
export function isShellCache(name: string): boolean {
  return name.startsWith(SHELL_CACHE_PREFIX);
}
