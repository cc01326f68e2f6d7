/**
 * 'You are offline' across the top of every screen while the browser has no network. The
 * live region is always there, so a screen reader hears the notice when the network drops.
 */
import { WifiOff } from 'lucide-react';
import { useOnline } from '../../lib/use-online';

export function OfflineBanner() {
  const online = useOnline();
  return (
    <div role="status">
      {online ? null : (
        <p className="flex items-center justify-center gap-2 bg-foreground px-4 pt-[max(0.5rem,env(safe-area-inset-top))] pb-2 text-sm text-background">
          <WifiOff className="size-4 shrink-0" aria-hidden="true" />
          <span>
            <strong className="font-semibold">You are offline.</strong> Reconnect to save changes.
          </span>
        </p>
      )}
    </div>
  );
}
