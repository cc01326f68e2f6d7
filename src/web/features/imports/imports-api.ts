/**
 * The import page's calls (/api/import, Import History): a file sent as it is, with how far
 * it has gone, one at a time. Apart from the product's client (lib/api.ts) so that only the
 * import page loads them.
 */
import pLimit from 'p-limit';
import { ApiError } from '../../../shared/api-error';
import type { ChangedChoice } from '../../../shared/import-preview';
import type {
  FileImportDone,
  FileImportPreview,
  ImportHistoryEntry,
  ImportTurnState,
  ImportUndone,
} from '../../../shared/imports';
import { NETWORK_ERROR, queryString, refusal, request } from '../../lib/api-request';
import { requestLanguageTag } from '../../lib/i18n';

/** What becomes of one file on /import: where its records go, and how it is read. */
export interface FileImportChoices {
  /** A person id, NEW_MEMBER, or none (the server proposes the person the file names). */
  person?: string;
  changed?: ChangedChoice;
  /** Import the rows that could be read, leaving those that could not. */
  confirm?: boolean;
  /** Measurements from and to these days (`YYYY-MM-DD`). */
  from?: string;
  to?: string;
}

/**
 * One import request at a time from this page: the server reads one file per account at a
 * time (and refuses a second meanwhile), so several files chosen at once wait their turn.
 */
const oneImportAtATime = pLimit(1);

/**
 * How far a file on /import has gone: waiting for the files before it, its bytes on their way
 * (an export of 2 GB takes a while to send), then read by the server, or, on a server that
 * runs one heavy job at a time, waiting there for another import to finish ('queued').
 */
export type ImportProgress = 'waiting' | { sent: number; total: number } | 'reading' | 'queued';

/** How often the page asks whether a file the server has is waiting for its turn. */
const TURN_EVERY_MS = 2_000;

/** A file sent as it is (the server tells its kind by its content), with the user's choices. */
function sendFile<T>(
  file: File,
  choices: FileImportChoices,
  preview: boolean,
  onProgress: (progress: ImportProgress) => void = () => undefined,
): Promise<T> {
  onProgress('waiting');
  return oneImportAtATime(() => sendFileNow<T>(file, choices, preview, onProgress));
}

/** Sent with XMLHttpRequest, the one way a page is told how much of a body has gone. */
function sendFileNow<T>(
  file: File,
  choices: FileImportChoices,
  preview: boolean,
  onProgress: (progress: ImportProgress) => void,
): Promise<T> {
  const url = `/api/import${queryString({
    preview: preview ? 'true' : undefined,
    file: file.name,
    person: choices.person,
    changed: preview ? undefined : choices.changed,
    confirm: choices.confirm ? 'true' : undefined,
    from: choices.from,
    to: choices.to,
    tz: Intl.DateTimeFormat().resolvedOptions().timeZone,
  })}`;
  return new Promise<T>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', url);
    request.setRequestHeader('content-type', 'application/octet-stream');
    request.setRequestHeader('Accept-Language', requestLanguageTag());
    request.responseType = 'json';
    request.upload.onprogress = (event) =>
      onProgress({ sent: event.loaded, total: event.lengthComputable ? event.total : file.size });
    // Once the file is there, whether it waits on the server for its turn.
    let asking: ReturnType<typeof setInterval> | undefined;
    const askTurn = () =>
      void importsApi.turn().then(
        (turn) => asking && onProgress(turn.waiting ? 'queued' : 'reading'),
        () => undefined,
      );
    const stopAsking = () => {
      clearInterval(asking);
      asking = undefined;
    };
    request.upload.onload = () => {
      onProgress('reading');
      asking = setInterval(askTurn, TURN_EVERY_MS);
    };
    request.onload = () => {
      stopAsking();
      if (request.status >= 200 && request.status < 300) resolve(request.response as T);
      else reject(refusal(request.status, request.statusText, request.response, '/api/import'));
    };
    request.onerror = () => {
      stopAsking();
      reject(new ApiError(0, NETWORK_ERROR));
    };
    request.send(file);
  });
}

export const importsApi = {
  /** What importing the file would do, for the person chosen (or the one it names). */
  preview: (
    file: File,
    choices: FileImportChoices,
    onProgress?: (progress: ImportProgress) => void,
  ) => sendFile<FileImportPreview>(file, choices, true, onProgress),
  /** Writes the file's records, as previewed and chosen. */
  importFile: (
    file: File,
    choices: FileImportChoices,
    onProgress?: (progress: ImportProgress) => void,
  ) => sendFile<FileImportDone>(file, choices, false, onProgress),
  /** Whether the account's import waits on the server for its turn. */
  turn: () => request<ImportTurnState>('GET', '/imports/turn'),
  /** Import History, newest first. */
  history: () => request<ImportHistoryEntry[]>('GET', '/imports'),
  /** Removes what one import added (and not what it found already here). */
  undo: (id: string) => request<ImportUndone>('POST', `/imports/${encodeURIComponent(id)}/undo`),
};
