/**
 * This device's side of reminders: the service worker's push subscription, made with the
 * server's VAPID public key once the user has allowed notifications.
 */

import { key } from '../../../shared/i18n/translate';

/** Its message is a catalogue key, translated where it is shown. */
export class ReminderDeviceError extends Error {}

export const NOT_SUPPORTED = key(
  'This browser cannot get reminders: it has no push messages (on an iPhone or iPad, add Kin Health to the Home Screen first).',
);
export const PERMISSION_DENIED = key(
  'Notifications are blocked for this site. Allow them in the browser’s site settings, then try again.',
);
export const SUBSCRIBE_FAILED = key(
  'This browser could not sign up for push messages (it needs its push service to be reachable). Try again later.',
);

export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  );
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function registration(): Promise<ServiceWorkerRegistration> {
  const existing = await navigator.serviceWorker.getRegistration('/');
  if (existing) return existing;
  try {
    await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  } catch {
    throw new ReminderDeviceError(NOT_SUPPORTED);
  }
  return navigator.serviceWorker.ready;
}

/** This device's current subscription, if it has one. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const existing = await navigator.serviceWorker.getRegistration('/');
  return (await existing?.pushManager.getSubscription()) ?? null;
}

/** Asks for permission (once) and subscribes this device; throws ReminderDeviceError. */
export async function subscribeDevice(publicKey: string): Promise<PushSubscription> {
  if (!pushSupported()) throw new ReminderDeviceError(NOT_SUPPORTED);
  const permission =
    Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
  if (permission !== 'granted') throw new ReminderDeviceError(PERMISSION_DENIED);
  const worker = await registration();
  const existing = await worker.pushManager.getSubscription();
  if (existing) return existing;
  try {
    return await worker.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(publicKey),
    });
  } catch {
    throw new ReminderDeviceError(SUBSCRIBE_FAILED);
  }
}

/** The subscription's keys, as the server keeps them. */
export function subscriptionKeys(subscription: PushSubscription) {
  const json = subscription.toJSON();
  return { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' };
}
