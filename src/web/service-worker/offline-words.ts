/**
 * The words of the page the service worker answers with when there is no network and no
 * app kept (service-worker.ts). The worker carries no catalogue: the build writes each
 * language's words for these keys into it (scripts/service-worker-plugin.ts), and the page
 * speaks the browser's language.
 */
import { key } from '../../shared/i18n/translate';

export const OFFLINE_WORDS = {
  title: key('You are offline'),
  text: key(
    'Kin Health needs a connection to open. Check your Wi-Fi or mobile data, then try again.',
  ),
  again: key('Try again'),
} as const;

export type OfflineWords = Record<keyof typeof OFFLINE_WORDS, string>;
