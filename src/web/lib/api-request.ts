/**
 * How the web app calls the API: fetch on this origin with the session cookie and the app's
 * language, a refusal made an ApiError carrying the server's own message, and an ended
 * session told to whoever listens. The sign-in screen needs only this and its own calls
 * (auth-api.ts); the product's typed client (api.ts) builds on it.
 */
import type { ClientResponse } from 'hono/client';
import { ApiError } from '../../shared/api-error';
import { key } from '../../shared/i18n/translate';
import { requestLanguageTag } from './i18n';

type Listener = () => void;
const unauthenticatedListeners = new Set<Listener>();

/** Called whenever the server says the session is gone, so the app can send the user to /auth. */
export function onUnauthenticated(listener: Listener): () => void {
  unauthenticatedListeners.add(listener);
  return () => unauthenticatedListeners.delete(listener);
}

/** Messages the client makes itself: keys of the catalogue, translated where shown (errorMessage). */
export const NETWORK_ERROR = key(
  'Could not reach the server. Check your connection and try again.',
);
const REQUEST_FAILED = key('Request failed');

/** fetch, on this origin with its cookie, answering a refusal with an ApiError. */
export async function send(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  let response: Response;
  try {
    // The server answers (its refusals, its validation messages) in the app's language.
    const headers = new Headers(init.headers);
    headers.set('Accept-Language', requestLanguageTag());
    response = await fetch(input, { ...init, headers, credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, NETWORK_ERROR);
  }
  if (!response.ok) {
    const data: unknown = await response.json().catch(() => null);
    const path = new URL(response.url || String(input), window.location.origin).pathname;
    throw refusal(response.status, response.statusText, data, path);
  }
  return response;
}

/**
 * A refused request as an ApiError (`fallback` when the server gave no words); an ended
 * session (outside sign-in) is told to listeners.
 */
export function refusal(
  status: number,
  statusText: string,
  data: unknown,
  path: string,
  fallback: string = REQUEST_FAILED,
): ApiError {
  const { message, field } = (data ?? {}) as { message?: string; field?: string };
  if (status === 401 && !path.startsWith('/api/auth/')) {
    for (const listener of unauthenticatedListeners) listener();
  }
  return new ApiError(status, message || statusText || fallback, field);
}

/**
 * What a route answers when it accepts the call: its refusals (the validators' 400s among
 * its typed answers, and every thrown one) become an ApiError in `send` instead.
 */
export type Accepted<R> =
  R extends ClientResponse<unknown, 400, string>
    ? never
    : R extends ClientResponse<infer T, infer _Status, infer _Format>
      ? T
      : never;

/** The body of a call's answer (nothing for 204 No Content). */
export async function answer<R extends ClientResponse<unknown>>(
  call: Promise<R>,
): Promise<Accepted<R>> {
  const response = await call;
  return response.status === 204
    ? (undefined as Accepted<R>)
    : ((await response.json()) as Accepted<R>);
}

export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await send(`/api${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 204) return undefined as T;
  return (await response.json().catch(() => null)) as T;
}

export function queryString(params: Record<string, string | number | undefined>): string {
  const entries = Object.entries(params).filter(
    (entry): entry is [string, string | number] => entry[1] !== undefined && entry[1] !== '',
  );
  return entries.length ? `?${new URLSearchParams(entries.map(([k, v]) => [k, String(v)]))}` : '';
}
