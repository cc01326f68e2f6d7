import { cva, type VariantProps } from 'class-variance-authority';
import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

/** What every field shares; its width and type size are its variant's. */
const FIELD =
  'block rounded-xl border border-input bg-surface px-3.5 py-2.5 text-foreground shadow-xs placeholder:text-muted-foreground/80 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring disabled:opacity-60 aria-[invalid=true]:border-destructive';

const inputVariants = cva(
  `${FIELD} min-h-11 read-only:bg-surface-muted read-only:text-muted-foreground`,
  {
    variants: {
      size: {
        default: 'w-full text-base',
        /** A number of a few digits. */
        narrow: 'w-32 text-base',
        /** A code shown to be read out or copied. */
        code: 'h-14 w-full text-center font-mono text-2xl font-semibold tracking-widest',
      },
    },
    defaultVariants: { size: 'default' },
  },
);

export function Input({
  className,
  size,
  ...props
}: Omit<ComponentProps<'input'>, 'size'> & VariantProps<typeof inputVariants>) {
  return <input className={cn(inputVariants({ size }), className)} {...props} />;
}

const textareaVariants = cva(`${FIELD} w-full`, {
  variants: {
    size: {
      default: 'resize-y text-base leading-relaxed',
      /** A key or code to copy, wrapped rather than cut off. */
      code: 'resize-none font-mono text-sm tracking-wide',
    },
  },
  defaultVariants: { size: 'default' },
});

export function Textarea({
  className,
  size,
  ...props
}: ComponentProps<'textarea'> & VariantProps<typeof textareaVariants>) {
  return <textarea className={cn(textareaVariants({ size }), className)} {...props} />;
}

export function Select({ className, ...props }: ComponentProps<'select'>) {
  return (
    <select
      className={cn(
        FIELD,
        'min-h-11 w-full appearance-none bg-[length:1.1rem] bg-[position:right_0.75rem_center] bg-no-repeat pe-10 text-base rtl:bg-[position:left_0.75rem_center]',
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
