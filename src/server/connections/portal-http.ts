/**
 * Every request to a patient portal: time-limited and size-bounded, so that a slow or
 * flooding portal costs one sync its time and nothing more. The answer's body is read up to
 * its bound and handed on as a Response, so oauth4webapi (as its `customFetch`) and the FHIR
 * reads see the same bounded answers.
 */

/** How long one request to a portal may take, sign-in exchanges and reads alike. */
export const PORTAL_REQUEST_MS = 30_000;
/** The most an answer that is not a document's file may be. */
export const PORTAL_ANSWER_BYTES = 16 * 1024 * 1024;

/** Why a portal's answer was not had: said to the family in words (connection-sync.ts). */
export class PortalError extends Error {
  constructor(
    /** 'sign-in': the portal wants its patient to sign in again; 'refused': it said no; 'unreachable'. */
    readonly kind: 'sign-in' | 'refused' | 'unreachable',
    message: string,
  ) {
    super(message);
  }
}

export const PORTAL_UNREACHABLE = 'The portal did not answer';

export interface PortalFetchOptions {
  maxBytes?: number;
  timeoutMs?: number;
  /** The sync's own deadline, besides this request's. */
  signal?: AbortSignal;
}

/** `fetch`, with the answer's body read (up to `maxBytes`) before it is handed on. */
export async function portalFetch(
  url: string,
  init: RequestInit,
  {
    maxBytes = PORTAL_ANSWER_BYTES,
    timeoutMs = PORTAL_REQUEST_MS,
    signal,
  }: PortalFetchOptions = {},
): Promise<Response> {
  const signals = [AbortSignal.timeout(timeoutMs), signal, init.signal ?? undefined].filter(
    (each): each is AbortSignal => each !== undefined,
  );
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.any(signals) });
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > maxBytes) {
      await response.body?.cancel();
      throw new PortalError('refused', tooLarge(maxBytes));
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    if (response.body) {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        size += chunk.byteLength;
        if (size > maxBytes) throw new PortalError('refused', tooLarge(maxBytes));
        chunks.push(chunk);
      }
    }
    const body = Buffer.concat(chunks);
    return new Response(response.status === 204 || response.status === 304 ? null : body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  } catch (error) {
    if (error instanceof PortalError) throw error;
    throw new PortalError('unreachable', PORTAL_UNREACHABLE);
  }
}

const tooLarge = (maxBytes: number) =>
  `The portal's answer was too large (over ${Math.round(maxBytes / 1024 / 1024)} MB)`;
