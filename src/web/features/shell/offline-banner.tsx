/**
 * 'You are offline' across the top of every screen while the browser has no network, kept
 * in sight however far the screen is scrolled (a save waits for the network meanwhile). The
 * live region is always there, so a screen reader hears the notice when the network drops.
 * Its height is published as --offline-banner-height, so the screens' sticky headers stop
 * below it rather than under it.
 */
import { WifiOff } from 'lucide-react';
import { useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useOnline } from '../../lib/use-online';

export function OfflineBanner() {
  const online = useOnline();
  const { t } = useTranslation();
  const banner = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const element = banner.current;
    if (!element) return;
    const root = document.documentElement.style;
    // Published when it changes, as the browser lays the banner out: online, the banner is
    // empty and the headers' own default (0) holds, so the first screen is neither measured
    // ahead of its layout nor restyled for a height that changes nothing.
    let published = 0;
    const observer = new ResizeObserver(() => {
      const height = element.offsetHeight;
      if (height === published) return;
      published = height;
      if (height) root.setProperty('--offline-banner-height', `${height}px`);
      else root.removeProperty('--offline-banner-height');
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.removeProperty('--offline-banner-height');
    };
  }, []);
  return (
    <div role="status" ref={banner} className="sticky top-0 z-50">
      {online ? null : (
        <p className="flex items-center justify-center gap-2 bg-foreground px-4 pt-[max(0.5rem,env(safe-area-inset-top))] pb-2 text-sm text-background">
          <WifiOff className="size-4 shrink-0" aria-hidden="true" />
          <span>
            <strong className="font-semibold">{t('You are offline.')}</strong>{' '}
            {t('Reconnect to save changes.')}
          </span>
        </p>
      )}
    </div>
  );
}
