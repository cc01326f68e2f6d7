/**
 * 'You are offline' across the top of every screen while the browser has no network. The
 * live region is always there, so a screen reader hears the notice when the network drops.
 */
import { WifiOff } from 'lucide-react';
import { useSyncExternalStore } from 'react';

function subscribe(onChange: () => void) {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );
}

export function OfflineBanner() {
  const online = useOnline();
  return (
    <div role="status">
      {online ? null : (
        <p className="flex items-center justify-center gap-2 bg-foreground px-4 pt-[max(0.5rem,env(safe-area-inset-top))] pb-2 text-center text-sm text-background">
          <WifiOff className="size-4 shrink-0" aria-hidden="true" />
          <span>
            <strong className="font-semibold">You are offline</strong>. Changes can&apos;t be saved
            until you reconnect.
          </span>
        </p>
      )}
    </div>
  );
}
