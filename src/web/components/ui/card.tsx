import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

export function Card({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      className={cn(
        'rounded-2xl border border-border bg-surface shadow-[0_1px_2px_rgb(15_31_36/0.05)]',
        className,
      )}
      {...props}
    />
  );
}
