/**
 * Parts of the app that arrive after the page opened (a dialog's code, the toasts, a chart,
 * the rest of a language's words) may be asked for when the network is gone: the first tap
 * of a person who opened the app and then walked into a lift. Before the service worker
 * holds the build, such a download fails, and a part React was waiting for would take the
 * whole page down with it, and with it a form being typed.
 *
 * Here a download that fails while the browser is offline waits for the network and is
 * tried again; meanwhile the part is simply not there yet. One that fails while online is
 * tried once more a moment later, then fails as it would have (a server that is down says so).
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

const RETRY_ONLINE_MS = 1000;

const backOnline = () =>
  new Promise<void>((resolve) =>
    window.addEventListener('online', () => resolve(), { once: true }),
  );

const aMoment = () => new Promise<void>((resolve) => setTimeout(resolve, RETRY_ONLINE_MS));

/** `load()`, tried again when the network returns, and once more when it failed online. */
export async function whenReachable<T>(load: () => Promise<T>): Promise<T> {
  let triedOnline = false;
  for (;;) {
    try {
      return await load();
    } catch (error) {
      if (!navigator.onLine) await backOnline();
      else if (triedOnline) throw error;
      else {
        triedOnline = true;
        await aMoment();
      }
    }
  }
}

/** React.lazy whose download waits out a lost network (whenReachable). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as React.lazy itself
export function lazyPart<T extends ComponentType<any>>(
  load: () => Promise<{ default: T }>,
): LazyExoticComponent<T> {
  return lazy(() => whenReachable(load));
}
