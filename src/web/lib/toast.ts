/**
 * Toasts with SPEC.md §8's titles. The server's message is the description. A toast with
 * the same title replaces the one already showing instead of stacking under it: the newest
 * word on what failed (a refused passcode after a mistyped one) is the one that counts. A
 * success clears the errors still showing: they are about something that has since worked.
 */
import { toast } from 'sonner';
import type { Toast } from '../../shared/records/definition';
import { ApiError } from '../../shared/api-error';
import { tr } from '../../shared/i18n/translate';

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
  toast.error(title, { id, description, onDismiss: gone, onAutoClose: gone });
}

export function showSuccess(message: Toast | string) {
  const { title, description } =
    typeof message === 'string' ? { title: message, description: undefined } : message;
  for (const id of errorsShowing) toast.dismiss(id);
  errorsShowing.clear();
  toast.success(title, { id: `success:${title}`, description });
}

export function showInfo(title: string) {
  toast(title, { id: `info:${title}` });
}
