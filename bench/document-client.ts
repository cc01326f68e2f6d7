/**
 * A bench's account talking to the product's documents API as the app does: signed up and
 * in, uploading a file, asking for a document's text (bench/document-stall.ts,
 * bench/heavy-jobs.ts).
 */
import type { DocumentTextAnswer } from '../src/shared/documents';
import { benchConfig } from './config';
import type { ServerProcess } from './processes';
import { BENCH_PASSWORD, signInCookie, signUp } from './seed';

export interface Account {
  name: string;
  headers: Record<string, string>;
}

export async function account(product: ServerProcess, name: string): Promise<Account> {
  const made = await signUp(
    product.url,
    { name, email: `${name.toLowerCase()}-${Date.now()}@example.com`, password: BENCH_PASSWORD },
    benchConfig.passcode,
  );
  return {
    name,
    headers: {
      cookie: await signInCookie(product.url, made, benchConfig.passcode),
      origin: product.url,
    },
  };
}

export interface Uploaded {
  what: string;
  status: number;
  seconds: number;
  id?: string;
  thumbnail?: boolean;
  message?: string;
}

export async function upload(
  product: ServerProcess,
  who: Account,
  what: string,
  bytes: Buffer,
): Promise<Uploaded> {
  const started = performance.now();
  const response = await fetch(
    `${product.url}/api/documents?title=${encodeURIComponent(what)}&document_type=Other`,
    {
      method: 'POST',
      headers: { ...who.headers, 'content-type': 'application/octet-stream' },
      body: new Uint8Array(bytes),
    },
  );
  const seconds = (performance.now() - started) / 1000;
  const answer = (await response.json()) as {
    id?: string;
    thumbnail_url?: string | null;
    error?: string;
  };
  return {
    what: `${who.name}: ${what}`,
    status: response.status,
    seconds,
    id: answer.id,
    thumbnail: answer.id ? Boolean(answer.thumbnail_url) : undefined,
    message: answer.error,
  };
}

export async function textOf(product: ServerProcess, who: Account, id: string) {
  const response = await fetch(`${product.url}/api/documents/${id}/text`, {
    headers: who.headers,
  });
  return (await response.json()) as DocumentTextAnswer;
}
