/**
 * A form's values checked against a shared schema before they are sent. The first problem
 * shows as an error toast, titled as SPEC.md §8 says for the screen; a form that also shows
 * errors beside its fields gets the problem, and the field it is about, in `onInvalid`.
 */
import type { ZodType } from 'zod';
import { tr } from '../../shared/i18n/translate';
import { showError } from './toast';

export interface FormIssue {
  /** The top-level field the problem is about, when it is about one. */
  field: string | undefined;
  message: string;
}

/** The parsed values, or nothing when they do not pass (the problem is shown already). */
export function parseOrShowError<T>(
  schema: ZodType<T>,
  values: unknown,
  title: string,
  onInvalid?: (issue: FormIssue) => void,
): T | undefined {
  const parsed = schema.safeParse(values);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path[0];
  const message = issue?.message ? tr(issue.message) : tr('Invalid input');
  onInvalid?.({ field: typeof field === 'string' ? field : undefined, message });
  showError(title, new Error(message));
  return undefined;
}
