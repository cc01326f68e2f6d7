/**
 * When a user leaves (signs out, or deletes the account), every cache of this origin that
 * could hold something of theirs goes: the emergency cards kept for use with no network
 * (EMERGENCY_CARD_CACHE), and any other that is not the built app shell (one left by an
 * older worker).
 */
import { isShellCache } from './cache-names';

export async function deleteUserCaches(): Promise<void> {
  // CacheStorage exists only in secure contexts (https, localhost).
  if (!('caches' in globalThis)) return;
  const names = await caches.keys();
  await Promise.all(names.filter((name) => !isShellCache(name)).map((name) => caches.delete(name)));
}
