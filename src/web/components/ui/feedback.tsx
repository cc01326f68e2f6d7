/** Loading, empty and missing states, so no screen is ever blank. */
import { WifiOff, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '../../lib/cn';
import { useOnline } from '../../lib/use-online';

/**
 * A screen waiting for its data. With no network, queries wait for it to come back (and go
 * on by themselves when it does): the screen says so rather than seem to load forever.
 */
export function Loading({ className, compact }: { className?: string; compact?: boolean }) {
  const online = useOnline();
  const { t } = useTranslation();
  return (
    <div
      role="status"
      className={cn(
        'flex items-center justify-center gap-3 text-muted-foreground',
        // Compact inside a card, roomy where it stands for a whole screen.
        compact ? 'py-4' : 'py-12',
        className,
      )}
    >
      {online ? (
        <span
          className="size-5 animate-spin rounded-full border-2 border-primary border-t-transparent"
          aria-hidden="true"
        />
      ) : (
        <WifiOff className="size-5" aria-hidden="true" />
      )}
      <span>{online ? t('Loading...') : t('Waiting for a connection...')}</span>
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
