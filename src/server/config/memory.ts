/**
 * The server's memory budget (KIN_MEMORY_MB, default 512): what the server and the job
 * processes it starts (a document's text, thumbnails) are meant to hold together, and what
 * follows from it (docs/decisions/0072):
 *
 * - how many heavy jobs run at once (an import, a portal's sync, a document's text by OCR):
 *   one under 1 GB, the others waiting their turn (runtime/heavy-jobs.ts);
 * - each job process's JavaScript heap: a file whose parsing would fill it fails alone;
 * - libvips' threads per image (sharp): one under 1 GB, where each thread's buffers of a
 *   12-megapixel photo count;
 * - how long an idle job process is kept: 5 s under 1 GB (long enough for the next document
 *   of a batch), a minute above; under 1 GB the idle thumbnail process also ends as soon as a
 *   heavy job begins, its memory the heavy job's (`restForHeavyJobs`);
 * - under 1 GB, OCR's engine started when pages are to be read and ended once they are
 *   (`releaseOcr`): after each document, and before a PDF's next pages are drawn. Its
 *   WebAssembly memory, which never shrinks while it lives, is not held beside a drawing or
 *   the next document.
 *
 * Read by the server from its configuration and by a job process from its environment (which
 * it inherits), through the one function below.
 */
import { z } from 'zod';
import { checked, parseEnv, unsetIfEmpty, type Env } from './env';

export const DEFAULT_MEMORY_MB = 512;
/** Less than this cannot hold the server at rest (about 180 MB) and one job. */
export const MIN_MEMORY_MB = 256;

export interface MemoryPlan {
  /** KIN_MEMORY_MB. */
  budgetMb: number;
  /** How many heavy jobs run at the same time; the rest wait. */
  heavyJobsAtOnce: number;
  /** The JavaScript heap of each job process, in MB. */
  jobHeapMb: number;
  /** libvips' threads for one image (sharp.concurrency); 0 is its default, one per core. */
  imageThreads: number;
  /**
   * How long a job process stays with nothing to do before it ends and gives its memory back
   * (OCR's WebAssembly memory never shrinks while the process lives).
   */
  jobIdleMs: number;
  /**
   * An idle thumbnail process ends when a heavy job begins, not `jobIdleMs` later: under
   * 1 GB the 130 MB it holds are the heavy job's (a scan's text begins a second after its
   * thumbnail is made).
   */
  restForHeavyJobs: boolean;
  /**
   * OCR's engine (tesseract.js) is ended after each document, and before a PDF's next pages
   * are drawn (documents/processors/pdf.ts OCR_BATCH), rather than kept for the process's
   * life: a noisy photo grows its memory by hundreds of MB, and each page read grows it more,
   * which the next document or the drawing of the next pages would otherwise hold too.
   * Starting it again takes about half a second (decisions 0078, 0079).
   */
  releaseOcr: boolean;
}

/**
 * What a job process (a document's text, thumbnails) is given: its heap, its idle time, and
 * whether OCR's engine is ended between its uses.
 */
export type JobProcessMemory = Pick<MemoryPlan, 'jobHeapMb' | 'jobIdleMs' | 'releaseOcr'>;

/** What a budget of `budgetMb` gives each part. */
export function memoryPlan(budgetMb: number): MemoryPlan {
  const small = budgetMb < 1024;
  return {
    budgetMb,
    heavyJobsAtOnce: small ? 1 : budgetMb < 2048 ? 2 : 3,
    jobHeapMb: Math.min(512, Math.max(128, Math.round(budgetMb * 0.375))),
    imageThreads: small ? 1 : 0,
    jobIdleMs: small ? 5_000 : 60_000,
    restForHeavyJobs: small,
    releaseOcr: small,
  };
}

/** The plan of the default budget (what a server without KIN_MEMORY_MB runs with). */
export const DEFAULT_MEMORY_PLAN: MemoryPlan = memoryPlan(DEFAULT_MEMORY_MB);

export const memoryEnv = z
  .object({
    KIN_MEMORY_MB: unsetIfEmpty(
      checked(
        (value) =>
          /^\d+$/.test(value) &&
          Number.isSafeInteger(Number(value)) &&
          Number(value) >= MIN_MEMORY_MB,
        (value) =>
          `KIN_MEMORY_MB must be a whole number of megabytes, ${MIN_MEMORY_MB} or more, not "${value}"`,
      )
        .transform(Number)
        .default(DEFAULT_MEMORY_MB),
    ),
  })
  .transform((env) => memoryPlan(env.KIN_MEMORY_MB));

/** The plan of an environment's KIN_MEMORY_MB (a ConfigError naming it when it is wrong). */
export function memoryPlanOf(env: Env): MemoryPlan {
  return parseEnv(memoryEnv, env);
}
