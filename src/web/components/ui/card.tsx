import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

const TONES = {
  default: 'border-border bg-surface',
  /** What cannot be undone (deleting the account). */
  danger: 'border-destructive bg-surface',
  /** A note set apart from the cards around it. */
  soft: 'border-border bg-primary-soft/60',
} as const;

export function Card({
  className,
  tone = 'default',
  ...props
}: ComponentProps<'div'> & { tone?: keyof typeof TONES }) {
  return (
    <div
      className={cn(
        'rounded-2xl border shadow-[0_1px_2px_rgb(15_31_36/0.05)]',
        TONES[tone],
        className,
      )}
      {...props}
    />
  );
}
