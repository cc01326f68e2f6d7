import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { Label } from './input';

/**
 * Two fields that belong together (a start and an end date): one above the other on a phone,
 * as every field is, and side by side from 1024 px wide.
 */
export const PAIRED_FIELDS =
  'space-y-5 lg:grid lg:grid-cols-2 lg:items-start lg:gap-x-4 lg:space-y-0';

/**
 * A label above its control, with an optional hint and error below. `labelClassName` styles
 * the label's line: 'lg:sr-only' where a column's header shows the name at a desk.
 */
export function FormField({
  id,
  label,
  required,
  error,
  labelClassName,
  children,
}: {
  id: string;
  label: string;
  required?: boolean;
  error?: string;
  labelClassName?: string;
  children: ReactNode;
}) {
  return (
    <div className="space-y-1.5">
      {/* The mark stays outside the label, so that the label's text is the field's name
          alone (a test or an assistive tool finding "Email" finds this field); the input's
          own required attribute tells assistive tools it is required. */}
      <div className={cn('flex items-baseline gap-1', labelClassName)}>
        <Label htmlFor={id}>{label}</Label>
        {required ? (
          <span className="text-sm text-destructive" aria-hidden="true">
            *
          </span>
        ) : null}
      </div>
      {children}
      <FieldError id={errorIdOf(id)} message={error} />
    </div>
  );
}

/** The id of the message FormField shows under a field. */
const errorIdOf = (id: string) => `${id}-error`;

/**
 * What a field's control says of its error: invalid, and described by the message FormField
 * shows under it (`${id}-error`), so that a screen reader reads it with the field.
 */
export function fieldErrorProps(id: string, error: unknown) {
  return error
    ? { 'aria-invalid': true as const, 'aria-describedby': errorIdOf(id) }
    : { 'aria-invalid': undefined, 'aria-describedby': undefined };
}

/** What is wrong with a field (or a group of them), announced as it appears. */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p id={id} className="text-sm font-medium text-destructive" role="alert">
      {message}
    </p>
  ) : null;
}
