/**
 * The VAPID header a push service checks (RFC 8292): a JWT signed with the server's key,
 * naming the push service's origin and an expiry of at most 24 hours. Signing it is most of a
 * reminder's cost, and one token serves every reminder to that push service until it nears
 * its expiry, so each is signed once and kept: for 12 hours, renewed an hour before it ends.
 * The expiry is in real time, whatever clock the reminder job runs on.
 */
import webPush from 'web-push';
import type { VapidConfig } from '../config';

const LIFETIME_SECONDS = 12 * 60 * 60;
const RENEW_BEFORE_MS = 60 * 60 * 1000;

export function vapidHeaders(vapid: VapidConfig, now: () => number = Date.now) {
  const kept = new Map<string, { headers: Record<string, string>; renewAt: number }>();
  return (endpoint: string): Record<string, string> => {
    const audience = new URL(endpoint).origin;
    const at = now();
    const found = kept.get(audience);
    if (found && found.renewAt > at) return found.headers;
    const expiresAt = Math.floor(at / 1000) + LIFETIME_SECONDS;
    const headers = webPush.getVapidHeaders(
      audience,
      vapid.subject,
      vapid.publicKey,
      vapid.privateKey,
      'aes128gcm',
      expiresAt,
    ) as Record<string, string>;
    kept.set(audience, { headers, renewAt: expiresAt * 1000 - RENEW_BEFORE_MS });
    return headers;
  };
}
