import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

export const fieldClassName =
  'block w-full rounded-xl border border-input bg-surface px-3.5 py-2.5 text-base text-foreground shadow-xs placeholder:text-muted-foreground/80 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring disabled:opacity-60 aria-[invalid=true]:border-destructive';

export function Input({ className, ...props }: ComponentProps<'input'>) {
  return (
    <input
      className={cn(
        fieldClassName,
        'min-h-11 read-only:bg-surface-muted read-only:text-muted-foreground',
        className,
      )}
      {...props}
    />
  );
}

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return (
    <textarea className={cn(fieldClassName, 'resize-y leading-relaxed', className)} {...props} />
  );
}

export function Select({ className, ...props }: ComponentProps<'select'>) {
  return (
    <select
      className={cn(
        fieldClassName,
        'min-h-11 appearance-none bg-[length:1.1rem] bg-[right_0.75rem_center] bg-no-repeat pe-10 rtl:bg-[left_0.75rem_center]',
        'select-chevron',
        className,
      )}
      {...props}
    />
  );
}

export function Label({ className, ...props }: ComponentProps<'label'>) {
  return <label className={cn('text-sm font-medium text-foreground', className)} {...props} />;
}

/** A labelled checkbox: the whole row is the touch target. */
export function Checkbox({
  label,
  className,
  id,
  ...props
}: Omit<ComponentProps<'input'>, 'type'> & { label: string; id: string }) {
  return (
    <label
      htmlFor={id}
      className={cn(
        'flex min-h-11 cursor-pointer items-center gap-3 rounded-xl border border-input bg-surface px-3.5 py-2 text-sm font-medium has-[:checked]:border-primary has-[:checked]:bg-primary-soft',
        className,
      )}
    >
      <input
        id={id}
        type="checkbox"
        className="size-5 shrink-0 accent-[var(--primary)]"
        {...props}
      />
      {label}
    </label>
  );
}
