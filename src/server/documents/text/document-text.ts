/**
 * The text inside documents (issue #37), read in the background and kept for search:
 * `document_texts` (migration 0032) is each document's job and then its text. A stored
 * document is queued (`queueDocumentText`, from documents/document-hooks.ts); a worker
 * (`startDocumentTextWorker`) claims one job at a time, reads the document's text on a
 * thread of its own (document-text-thread.ts) and keeps it; the search index takes it in by
 * its triggers (search/search-sources.ts: the documents' joined text), the one hand-off from
 * documents to search. The jobs are the server's job queue's (runtime/job-queue.ts): a
 * claim lasts CLAIM_MS: a server that stops mid-job leaves a claim that runs out, and the
 * job is taken up again, by this server after its restart or by another; on PostgreSQL
 * several servers claim with `FOR UPDATE SKIP LOCKED` and never read one document twice at
 * once.
 *
 * Accounts take turns (decision 0050, the queue's `claimFairly`): the job claimed is the
 * oldest of the account whose last job was taken up longest ago (or never), so one account's
 * hundred documents do not hold another's one behind them. A document is read within the
 * thread's limits (TEXT_LIMITS: its first pages, for so long); the text of the pages read is
 * kept, with how many they were (`pages_read`). A document that still holds the thread past its time, or
 * fills its heap, is failed at once, not tried again.
 */
import { randomUUID } from 'node:crypto';
import {
  copyFileSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
  rmSync,
  statSync,
} from 'node:fs';
import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Kysely } from 'kysely';
import type { DB, DocumentTextStatus, Engine } from '../../db/schema';
import { processorFor } from '../processors';
import type { Logger } from '../../logger';
import { claimFairly, leaseEnd, retryDelay, type FairJobTable } from '../../runtime/job-queue';
import { heavyJobs, type HeavyJobs } from '../../runtime/heavy-jobs';
import { isPastLimits } from '../../runtime/job-thread';
import type { JobProcessMemory } from '../../config/memory';
import {
  documentTextThread,
  LockedDocumentError,
  TEXT_LIMITS,
  type DocumentTextThread,
  type TextLimits,
} from './document-text-thread';

/**
 * The error kept for a PDF locked by a password (`last_error`): its page says why its text
 * cannot be read (GET /api/documents/{id}/text `reason: 'locked'`).
 */
export const LOCKED_TEXT_ERROR = 'The PDF is locked with a password';

/** How long a worker holds a job before another may take it up. */
export const CLAIM_MS = 10 * 60_000;
/** Tries before a document is marked as unreadable. */
export const MAX_ATTEMPTS = 3;
const RETRY_MS = 60_000;
/** The pause before each new try: the same after each failed one, until the last. */
const RETRY_DELAYS_MS = Array.from({ length: MAX_ATTEMPTS - 1 }, () => RETRY_MS);
const POLL_MS = 5_000;

const wakers = new Set<() => void>();

/** Queues a stored document's text to be read (again, if it was before). */
export async function queueDocumentText(
  db: Kysely<DB>,
  document: { documentId: string; userId: string },
): Promise<void> {
  const now = new Date().toISOString();
  await db
    .insertInto('document_texts')
    .values({
      document_id: document.documentId,
      user_id: document.userId,
      status: 'pending',
      text: null,
      pages: null,
      attempts: 0,
      claimed_until: null,
      last_error: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((conflict) => conflict.column('document_id').doNothing())
    .execute();
  for (const wake of wakers) wake();
}

/** Forgets a document's text and its job (the document is being deleted). */
export async function forgetDocumentText(
  db: Kysely<DB>,
  document: { documentId: string; userId: string },
): Promise<void> {
  await db
    .deleteFrom('document_texts')
    .where('user_id', '=', document.userId)
    .where('document_id', '=', document.documentId)
    .execute();
}

interface ClaimedJob {
  document_id: string;
  user_id: string;
  attempts: number;
}

/** The documents' text jobs in the server's job queue: one row per document. */
const TEXT_JOBS: FairJobTable = {
  table: 'document_texts',
  key: 'document_id',
  waiting: 'pending',
  claimed: 'reading',
  leaseMs: CLAIM_MS,
};

/**
 * Takes a job waiting (or whose claim ran out), or none: the oldest of the account whose
 * latest claim is the oldest (an account never served first; runtime/job-queue.ts).
 */
export async function claimDocumentText(
  db: Kysely<DB>,
  engine: Engine,
  now = new Date(),
): Promise<ClaimedJob | undefined> {
  const job = await claimFairly(db, engine, TEXT_JOBS, now);
  return job && { document_id: job.key, user_id: job.user_id, attempts: job.attempts };
}

async function settle(
  db: Kysely<DB>,
  documentId: string,
  values: {
    status: DocumentTextStatus;
    text?: string;
    pages?: number;
    pagesRead?: number;
    error?: string;
    retryAt?: string;
  },
) {
  await db
    .updateTable('document_texts')
    .set({
      status: values.status,
      text: values.text ?? null,
      pages: values.pages ?? null,
      // Kept only when fewer than all: null says the text is the whole document's.
      pages_read:
        values.pagesRead !== undefined &&
        values.pages !== undefined &&
        values.pagesRead < values.pages
          ? values.pagesRead
          : null,
      last_error: values.error ?? null,
      claimed_until: values.retryAt ?? null,
      updated_at: new Date().toISOString(),
    })
    .where('document_id', '=', documentId)
    .where('status', '=', 'reading')
    .execute();
}

/**
 * The folder of language data tesseract.js reads (`{lang}.traineddata.gz`), made in
 * `cachePath` from the installed `@tesseract.js-data/{lang}` packages; a language asked for
 * whose package is not installed is left out, and said so.
 */
export function languageData(
  languages: readonly string[],
  cachePath: string,
  logger?: Pick<Logger, 'warn'>,
): { langPath: string; languages: string[] } {
  const require = createRequire(import.meta.url);
  const langPath = path.join(cachePath, 'languages');
  mkdirSync(langPath, { recursive: true });
  const found: string[] = [];
  for (const language of languages) {
    const file = `${language}.traineddata.gz`;
    try {
      const folder = path.dirname(require.resolve(`@tesseract.js-data/${language}/package.json`));
      const source = path.join(folder, '4.0.0_best_int', file);
      const target = path.join(langPath, file);
      if (!existsSync(target)) copyFileSync(source, target);
      found.push(language);
    } catch {
      logger?.warn(
        { language },
        `OCR_LANGUAGES: no data for '${language}' (install @tesseract.js-data/${language})`,
      );
    }
  }
  if (found.length === 0) throw new Error('OCR_LANGUAGES: none of its languages is installed');
  return { langPath, languages: found };
}

export interface DocumentTextWorkerOptions {
  db: Kysely<DB>;
  engine: Engine;
  /** A document's stored file, as it streams (documents/document-files.ts openDocumentFile). */
  openFile: (
    documentId: string,
  ) => Promise<
    { bytes: AsyncIterable<Uint8Array> | Iterable<Uint8Array>; mimeType: string } | undefined
  >;
  /** The server's data folder: the OCR cache is kept in `ocr-cache` there. */
  dataDir: string;
  /** OCR_LANGUAGES (default English alone). */
  languages?: readonly string[];
  logger?: Pick<Logger, 'warn' | 'info'>;
  pollMs?: number;
  /** The thread that reads a document (tests may share one). */
  thread?: DocumentTextThread;
  /** The thread's heap and idle time, by the memory budget (none: KIN_MEMORY_MB's default). */
  memory?: JobProcessMemory;
  /** Where each document's reading waits its turn beside imports (none: it does not wait). */
  heavyJobs?: HeavyJobs;
  /** What reading one document may take (tests take less): TEXT_LIMITS's. */
  limits?: Partial<TextLimits>;
}

/**
 * The folder the worker's copies of documents are read from, made if need be (0700); a copy
 * older than any claim was left by a server that stopped mid-read, and is removed.
 */
function readingFolder(cachePath: string): string {
  const folder = path.join(cachePath, 'reading');
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const stale = Date.now() - CLAIM_MS;
  for (const name of readdirSync(folder)) {
    const file = path.join(folder, name);
    const modified = statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? Infinity;
    if (modified < stale) {
      rmSync(file, { force: true });
    }
  }
  return folder;
}

/** Starts reading queued documents one at a time; the answer stops it. */
export function startDocumentTextWorker(options: DocumentTextWorkerOptions): () => Promise<void> {
  const { db, engine, openFile, logger } = options;
  const cachePath = path.join(options.dataDir, 'ocr-cache');
  const readingPath = readingFolder(cachePath);
  const { langPath, languages } = languageData(options.languages ?? ['eng'], cachePath, logger);
  const thread = options.thread ?? documentTextThread({ memory: options.memory });
  // Not given the server's heavy jobs: a turn of its own, always free (one job at a time).
  const heavy = options.heavyJobs ?? heavyJobs(1);
  const limits = { ...TEXT_LIMITS, ...options.limits };
  let running = true;
  let timer: NodeJS.Timeout | undefined;
  let wakeNow: (() => void) | undefined;
  const wake = () => wakeNow?.();
  wakers.add(wake);

  /**
   * A document's text and pages, read from a copy of its file that is gone when this answers
   * (none: the document has no file). The file is copied as it streams to a file of the
   * worker's own, which the thread reads a range at a time: no whole file is held in memory,
   * on either engine.
   */
  async function readCopy(documentId: string) {
    const copy = path.join(readingPath, randomUUID());
    const prepared = `${copy}.png`;
    try {
      const file = await openFile(documentId);
      if (!file) return undefined;
      await pipeline(file.bytes, createWriteStream(copy, { mode: 0o600 }));
      const ready = await processorFor(file.mimeType).textReady(
        { file: copy, mimeType: file.mimeType },
        prepared,
      );
      return await thread.read({
        ...ready,
        langPath,
        cachePath,
        languages,
        pageLimit: limits.pages,
        ocrPageLimit: limits.ocrPages,
        timeLimitMs: limits.timeMs,
      });
    } finally {
      await rm(copy, { force: true });
      await rm(prepared, { force: true });
    }
  }

  async function readOne(job: ClaimedJob) {
    let outcome: Parameters<typeof settle>[2];
    try {
      const read = await readCopy(job.document_id);
      outcome = read
        ? { status: 'done', ...read }
        : { status: 'failed', error: 'The document has no file' };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      logger?.warn({ documentId: job.document_id, error: message }, 'document text not read');
      // A document that held the thread past its time, or filled its heap, would do so
      // again, and a locked one stays locked: neither is tried again.
      const locked = error instanceof LockedDocumentError;
      const delay =
        isPastLimits(error) || locked ? undefined : retryDelay(job.attempts, RETRY_DELAYS_MS);
      outcome =
        delay === undefined
          ? { status: 'failed', error: locked ? LOCKED_TEXT_ERROR : message }
          : { status: 'pending', error: message, retryAt: leaseEnd(new Date(), delay) };
    }
    // Settled once its copies are gone: a document whose text is read has nothing left of
    // it in the reading folder.
    await settle(db, job.document_id, outcome);
  }

  const loop = (async () => {
    while (running) {
      // A job is claimed once its turn beside the other heavy jobs has come: its lease does
      // not run out while an import is written.
      const read = await heavy.run(async () => {
        let job: ClaimedJob | undefined;
        try {
          job = await claimDocumentText(db, engine);
        } catch (error) {
          logger?.warn({ error: String(error) }, 'document text jobs could not be claimed');
        }
        if (job) await readOne(job);
        return job !== undefined;
      });
      if (read) continue;
      // Stopped while it looked for a job: it does not wait a poll first.
      if (!running) break;
      await new Promise<void>((resolve) => {
        wakeNow = resolve;
        timer = setTimeout(resolve, options.pollMs ?? POLL_MS);
        timer.unref();
      });
      wakeNow = undefined;
    }
  })();

  return async () => {
    running = false;
    wakers.delete(wake);
    if (timer) clearTimeout(timer);
    wake();
    await thread.close();
    await loop.catch(() => {});
  };
}

/** What the document's page shows: its text, or that it is being read (or could not be). */
export type { DocumentTextAnswer } from '../../../shared/documents';
