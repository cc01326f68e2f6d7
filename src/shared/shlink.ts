/**
 * The `shlink:/` payload of a SMART Health Link, and the viewer's words: what the viewer
 * page needs, without the schemas (and zod) of share-links.ts.
 */
import { key } from './i18n/translate';

/** The `shlink:/` payload (SMART Health Links). */
export interface ShlinkPayload {
  url: string;
  key: string;
  exp?: number;
  flag?: string;
  label?: string;
  v?: number;
}

export const SHLINK_PREFIX = 'shlink:/';
/** Where the viewer lives on this server; the payload follows `#`. */
export const VIEWER_PATH = '/shl';

export const NO_LONGER_AVAILABLE = key('This link is no longer available');
export const WRONG_PASSCODE = key('Wrong passcode');

function base64UrlEncodeText(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function base64UrlDecodeText(encoded: string): string {
  const base64 = encoded.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  return new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
}

/** `shlink:/` + the base64url of the payload's JSON. */
export function encodeShlink(payload: ShlinkPayload): string {
  return SHLINK_PREFIX + base64UrlEncodeText(JSON.stringify(payload));
}

/** The payload of a `shlink:/…` (or a viewer URL holding one after `#`), or null. */
export function decodeShlink(link: string): ShlinkPayload | null {
  const at = link.indexOf(SHLINK_PREFIX);
  if (at < 0) return null;
  try {
    const payload = JSON.parse(base64UrlDecodeText(link.slice(at + SHLINK_PREFIX.length))) as
      ShlinkPayload | undefined;
    if (typeof payload?.url !== 'string' || typeof payload.key !== 'string') return null;
    return payload;
  } catch {
    return null;
  }
}

/** A viewer URL on this origin: `https://host/shl#shlink:/…`. */
export function viewerUrl(origin: string, payload: ShlinkPayload): string {
  return `${origin}${VIEWER_PATH}#${encodeShlink(payload)}`;
}
