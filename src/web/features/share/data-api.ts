/**
 * The account's data and a person's records as files to keep or give (the export, FHIR, the
 * summary PDF).
 */
import { WHOLE_FAMILY_CONTACTS } from '../../../shared/constants';
import { localToday } from '../../../shared/date-values';
import { queryString, send } from '../../lib/api-request';

/** A download's bytes as they arrive, and its file name from the server. */
async function download(
  path: string,
  onProgress: (bytes: number) => void,
): Promise<{ blob: Blob; fileName: string | null }> {
  const response = await send(`/api${path}`);
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let bytes = 0;
  const reader = response.body?.getReader();
  for (;;) {
    const next = reader ? await reader.read() : { done: true as const, value: undefined };
    if (next.done) break;
    chunks.push(next.value);
    bytes += next.value.byteLength;
    onProgress(bytes);
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  return {
    blob: new Blob(chunks, { type: response.headers.get('content-type') ?? undefined }),
    fileName: /filename="([^"]+)"/.exec(disposition)?.[1] ?? null,
  };
}

export const dataApi = {
  /** Where the browser downloads the user's data from (a same-origin link, cookie and all). */
  exportUrl: '/api/export',
  /** The user's data as one JSON file (GET /api/export), fetched so that a refusal is seen. */
  downloadExport: (onProgress: (bytes: number) => void) => download('/export', onProgress),
  /** One person's records as a FHIR R4 Bundle ($everything), with progress as it streams. */
  downloadFhir: (personId: string, onProgress: (bytes: number) => void) =>
    download(
      `/fhir/Patient/${encodeURIComponent(personId)}/$everything?today=${localToday()}`,
      onProgress,
    ),
  /** One person's health summary as a PDF, dated and timed as the reader's browser is. */
  downloadSummaryPdf: (
    personId: string,
    onProgress: (bytes: number) => void,
    options: { wholeFamilyContacts?: boolean } = {},
  ) =>
    download(
      `/persons/${encodeURIComponent(personId)}/summary.pdf${queryString({
        today: localToday(),
        tz: Intl.DateTimeFormat().resolvedOptions().timeZone,
        contacts: options.wholeFamilyContacts ? WHOLE_FAMILY_CONTACTS : undefined,
      })}`,
      onProgress,
    ),
};
