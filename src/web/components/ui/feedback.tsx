/** Loading, empty and missing states, so no screen is ever blank. */
import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '../../lib/cn';

export function Loading({ className }: { className?: string }) {
  return (
    <div
      role="status"
      className={cn(
        'flex items-center justify-center gap-3 py-12 text-muted-foreground',
        className,
      )}
    >
      <span
        className="size-5 animate-spin rounded-full border-2 border-primary border-t-transparent"
        aria-hidden="true"
      />
      <span>Loading...</span>
    </div>
  );
}

export function EmptyState({
  icon: Icon,
  title,
  children,
}: {
  icon: LucideIcon;
  title: string;
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-2xl border border-dashed border-border bg-surface px-6 py-10 text-center">
      <span className="flex size-14 items-center justify-center rounded-full bg-primary-soft text-primary">
        <Icon className="size-7" aria-hidden="true" />
      </span>
      <p className="font-medium text-foreground">{title}</p>
      {children}
    </div>
  );
}
