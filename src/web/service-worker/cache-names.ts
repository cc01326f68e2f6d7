/**
 * The names the service worker and the page agree on. The worker keeps the app shell's cache
 * (the built files, the same for everyone) and one of a user's: the emergency cards last
 * opened on this device, so a card opens with no network (decision 0063). Every cache but the
 * shell's is deleted when a user signs out.
 */
export const SHELL_CACHE_PREFIX = 'kin-shell-';

/** A cache that holds only the built app, never anything of a user's. */
export function isShellCache(name: string): boolean {
  return name.startsWith(SHELL_CACHE_PREFIX);
}

/** The user's cache: the last answer of each emergency card opened here, and the card's link. */
export const EMERGENCY_CARD_CACHE = 'kin-emergency-card';

/** The API path of a person's emergency card. */
export const emergencyCardPath = (personId: string) =>
  `/api/persons/${encodeURIComponent(personId)}/emergency-card`;

/** Whether a path is an emergency card's (the only API answer the worker keeps). */
export const isEmergencyCardPath = (pathname: string) =>
  /^\/api\/persons\/[^/]+\/emergency-card$/.test(pathname);
