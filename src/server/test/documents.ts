/**
 * Documents in the API tests: an upload as the web app makes one (the file as the body, what
 * is said of it in the query string; a letter's title and type unless told otherwise), and
 * the HEIC sample's bytes.
 */
import { readFileSync } from 'node:fs';
import type { StoredDocument } from '../../shared/documents';
import { SAMPLE_HEIC } from '../documents/fixtures/sample-files';
import type { TestClient } from './harness';

export function uploadDocument(
  client: TestClient,
  bytes: Uint8Array,
  query: Record<string, string> = {},
  headers: Record<string, string> = {},
) {
  const params = new URLSearchParams({ title: 'Letter', document_type: 'Letter', ...query });
  return client.sendBytes<StoredDocument & { message?: string }>(
    'POST',
    `/api/documents?${params}`,
    bytes,
    headers,
  );
}

/** libheif's HEIC sample (documents/fixtures), as a phone's photo would be uploaded. */
export const sampleHeic = () => readFileSync(SAMPLE_HEIC);
