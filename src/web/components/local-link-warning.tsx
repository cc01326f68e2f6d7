/**
 * Under a link made for others to open (a share link, a calendar link): when its address is
 * this machine's own (localhost, 127.0.0.1), nobody else can open it, and the way out is the
 * server's BASE_URL. Shown only then.
 */
import { TriangleAlert } from 'lucide-react';
import { Trans } from 'react-i18next';
import { key } from '../../shared/i18n/translate';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '0.0.0.0']);

/** Whether a link's address reaches only the machine it was made on. */
export function isLocalOnlyLink(link: string): boolean {
  let host: string;
  try {
    host = new URL(link).hostname;
  } catch {
    return false;
  }
  return LOCAL_HOSTS.has(host) || host.endsWith('.localhost') || host.startsWith('127.');
}

export function LocalLinkWarning({ link }: { link: string }) {
  if (!isLocalOnlyLink(link)) return null;
  return (
    <div
      role="note"
      className="flex gap-2 rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <p className="min-w-0 break-words">
        <Trans
          i18nKey={key(
            '<strong>Others cannot open this link.</strong> It points to {host}, which means this computer only. To make links others can open, start Kin Health with <code>BASE_URL</code> set to the address they reach it at (for example <code>BASE_URL=https://health.example.org</code>), open it there, and make a new link.',
          )}
          values={{ host: new URL(link).host }}
          components={{ strong: <strong className="font-semibold" />, code: <code /> }}
        />
      </p>
    </div>
  );
}
