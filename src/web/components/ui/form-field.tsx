import type { ReactNode } from 'react';
import { Label } from './input';

/** A label above its control, with an optional hint and error below. */
export function FormField({
  id,
  label,
  required,
  error,
  children,
}: {
  id: string;
  label: string;
  required?: boolean;
  error?: string;
  children: ReactNode;
}) {
  return (
    <div className="space-y-1.5">
      {/* The mark stays outside the label, so that the label's text is the field's name
          alone (a test or an assistive tool finding "Email" finds this field); the input's
          own required attribute tells assistive tools it is required. */}
      <div className="flex items-baseline gap-1">
        <Label htmlFor={id}>{label}</Label>
        {required ? (
          <span className="text-sm text-destructive" aria-hidden="true">
            *
          </span>
        ) : null}
      </div>
      {children}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** What is wrong with a field (or a group of them), announced as it appears. */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p id={id} className="text-sm font-medium text-destructive" role="alert">
      {message}
    </p>
  ) : null;
}
