/**
 * Toasts with SPEC.md §8's titles. The server's message is the description. A toast with
 * the same title replaces the one already showing instead of stacking under it: the newest
 * word on what failed (a refused passcode after a mistyped one) is the one that counts. A
 * success clears the errors still showing: they are about something that has since worked.
 *
 * The toast library loads with the first toast or the first interaction (first-interaction.ts),
 * whichever comes first: its live region is on the page before the answer to a tap arrives,
 * so a screen reader announces the toast. A toast asked for before then shows once it loads.
 */
import type * as Toasts from 'sonner';
import type { Toast } from '../../shared/records/definition';
import { ApiError } from '../../shared/api-error';
import { tr } from '../../shared/i18n/translate';
import { onFirstInteraction } from './first-interaction';
import { whenReachable } from './when-reachable';

type Sonner = typeof Toasts;

let sonner: Promise<Sonner> | null = null;
const mountsWaiting = new Set<() => void>();

/** Loads the toast library, and has the page's toaster mounted (whenToasterWanted). */
function loadToasts(): Promise<Sonner> {
  if (!sonner) {
    sonner = whenReachable(() => import('sonner'));
    // A server that could not send it: the next toast asks again.
    sonner.catch(() => (sonner = null));
    for (const mount of mountsWaiting) mount();
    mountsWaiting.clear();
  }
  return sonner;
}

/** Calls `show` with the toast function once the library is here. */
function withToast(show: (toast: Sonner['toast']) => void) {
  loadToasts().then(
    ({ toast }) => show(toast),
    () => undefined,
  );
}

/** Calls `mount` when the toaster should be on the page: after the first toast or interaction. */
export function whenToasterWanted(mount: () => void): () => void {
  if (sonner) mount();
  else mountsWaiting.add(mount);
  return () => mountsWaiting.delete(mount);
}

onFirstInteraction(() => void loadToasts().catch(() => undefined));

/** What went wrong, in the language in force when the catalogue knows the words. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError || error instanceof Error) return tr(error.message);
  return tr('Something went wrong');
}

const errorsShowing = new Set<string>();

export function showError(title: string, error: unknown) {
  const description = errorMessage(error);
  const id = `error:${title}`;
  errorsShowing.add(id);
  const gone = () => errorsShowing.delete(id);
  withToast((toast) => toast.error(title, { id, description, onDismiss: gone, onAutoClose: gone }));
}

export function showSuccess(message: Toast | string) {
  const { title, description } =
    typeof message === 'string' ? { title: message, description: undefined } : message;
  const dismissed = [...errorsShowing];
  errorsShowing.clear();
  withToast((toast) => {
    for (const id of dismissed) toast.dismiss(id);
    toast.success(title, { id: `success:${title}`, description });
  });
}

export function showInfo(title: string) {
  withToast((toast) => toast(title, { id: `info:${title}` }));
}
