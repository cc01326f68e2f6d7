/**
 * Toasts with SPEC.md §8's titles. The server's message is the description. A toast with
 * the same title replaces the one already showing instead of stacking under it: the newest
 * word on what failed (a refused passcode after a mistyped one) is the one that counts.
 */
import { toast } from 'sonner';
import type { Toast } from '../../shared/records/definition';
import { ApiError } from '../../shared/api-error';

export function errorMessage(error: unknown): string {
  if (error instanceof ApiError || error instanceof Error) return error.message;
  return 'Something went wrong';
}

export function showError(title: string, error: unknown) {
  const description = errorMessage(error);
  toast.error(title, { id: `error:${title}`, description });
}

export function showSuccess(message: Toast | string) {
  const { title, description } =
    typeof message === 'string' ? { title: message, description: undefined } : message;
  toast.success(title, { id: `success:${title}`, description });
}

export function showInfo(title: string) {
  toast(title, { id: `info:${title}` });
}
