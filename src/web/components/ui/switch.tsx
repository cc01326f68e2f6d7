/**
 * An on/off switch: a button with role="switch" and aria-checked, named by its visible
 * label (and described by a hint, when there is one).
 */
import { useId } from 'react';
import { cn } from '../../lib/cn';

export interface SwitchProps {
  label: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  disabled?: boolean;
  hint?: string;
  /**
   * Named by text inside the button instead of by its visible label: for a switch whose
   * name contains a field's label on the same screen ('Email reminders' beside Profile
   * Settings' 'Email'), so that the field's label still names that field alone.
   */
  nameFromContent?: boolean;
}

export function Switch({
  label,
  checked,
  onCheckedChange,
  disabled,
  hint,
  nameFromContent,
}: SwitchProps) {
  const id = useId();
  return (
    <div className="flex min-h-11 items-center justify-between gap-4">
      <div className="min-w-0">
        <span id={`${id}-label`} className="font-medium" aria-hidden={nameFromContent}>
          {label}
        </span>
        {hint ? (
          <p id={`${id}-hint`} className="text-sm text-muted-foreground">
            {hint}
          </p>
        ) : null}
      </div>
      <button
        type="button"
        role="switch"
        aria-checked={checked}
        aria-labelledby={nameFromContent ? undefined : `${id}-label`}
        aria-describedby={hint ? `${id}-hint` : undefined}
        disabled={disabled}
        onClick={() => onCheckedChange(!checked)}
        className={cn(
          'relative inline-flex h-7 w-12 shrink-0 items-center rounded-full border-2 border-transparent transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:opacity-60',
          checked ? 'bg-primary' : 'bg-input',
        )}
      >
        {nameFromContent ? <span className="sr-only">{label}</span> : null}
        <span
          aria-hidden="true"
          className={cn(
            'inline-block size-6 rounded-full bg-surface shadow transition-transform',
            checked ? 'translate-x-5' : 'translate-x-0',
          )}
        />
      </button>
    </div>
  );
}
