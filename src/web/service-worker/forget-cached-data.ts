/**
 * When a user leaves (signs out, or deletes the account), every cache of this origin that
 * could hold something of theirs goes. The service worker stores only the built app shell
 * and never an API answer, so today there is no such cache; this keeps it true if one ever
 * appears (a future runtime cache, or one left by an older worker).
 */
import { isShellCache } from './cache-names';

export async function deleteUserCaches(): Promise<void> {
  // CacheStorage exists only in secure contexts (https, localhost).
  if (!('caches' in globalThis)) return;
  const names = await caches.keys();
  await Promise.all(names.filter((name) => !isShellCache(name)).map((name) => caches.delete(name)));
}
