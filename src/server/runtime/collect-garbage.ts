/**
 * A garbage collection, asked for where memory outside V8's heap becomes garbage faster than
 * V8 would collect it on its own, because V8 does not see it (or sees it late):
 *
 * - a request's body arrives in chunks, each a Buffer of its own (up to 64 kB, copied out of
 *   the socket); once written it is garbage, but its bytes are outside the heap, and V8
 *   collects for them only when they pass 64 MB: a 25 MB upload left them all resident
 *   (+22 MB of the server's memory on its first upload). A collection of the young
 *   generation frees them; it holds what requests in flight hold, a few MB at most, and
 *   takes about a millisecond. A download is the same the other way: each piece read from the
 *   store is garbage once written to the socket (`collectingAsItStreams`, for both);
 * - a PDF page drawn at 300 dpi for OCR leaves canvases behind (34 MB each, in Skia's memory,
 *   which V8 does not count at all): the document-text thread collects everything between
 *   two pages, and the documents thread once uploads pause, off the server's thread; a range
 *   of a PDF pdf.js has copied into its own array is collected as soon as it has
 *   (documents/pdf-pages.ts);
 * - heavy jobs on the server's own thread (an import's records written) grow its heap, and V8
 *   keeps the pages it frees after them for itself: a collection that reduces memory gives
 *   them back once the jobs end (`giveMemoryBackAfter`).
 *
 * Node.js exposes no collection without `--expose-gc` on its command line; the flag set here
 * before the function is first asked for gives the same function, to this module alone.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Logger } from '../logger';
import type { HeavyJobs } from './heavy-jobs';

type Collect = (options: {
  type: 'minor' | 'major';
  execution: 'sync' | 'async';
  flavor?: 'regular' | 'last-resort';
}) => void;

let collect: Collect | undefined;

function collector(): Collect {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as Collect;
  }
  return collect;
}

/**
 * Collects the young generation (`minor`) or the whole heap (`major`) now; `reduce` is a
 * whole collection that also gives back to the system the pages V8 keeps for reuse.
 */
export function collectGarbage(type: 'minor' | 'major' | 'reduce'): void {
  if (type === 'reduce') collector()({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  else collector()({ type, execution: 'sync' });
}

/** How many bytes streamed through the server may wait for a collection of the young generation. */
const BYTES_BETWEEN_COLLECTIONS = 4 * 1024 * 1024;

/**
 * A counter of the bytes a stream has passed on, which collects the young generation each
 * time another 4 MB have gone by: a stream's pieces are garbage once passed on, outside V8's
 * heap, where V8 would collect for them only past 64 MB.
 */
export function collectingAsItStreams(): (bytes: number) => void {
  let streamed = 0;
  let collectedAt = 0;
  return (bytes) => {
    streamed += bytes;
    if (streamed - collectedAt >= BYTES_BETWEEN_COLLECTIONS) {
      collectGarbage('minor');
      collectedAt = streamed;
    }
  };
}

const MB = 1024 * 1024;
/** How much the server's memory may have grown over heavy jobs before it is given back. */
export const GROWTH_TO_GIVE_BACK = 32 * MB;
/** How long after the job: its answer is sent first, and what it held is garbage by then. */
export const GIVE_BACK_AFTER_MS = 1_000;

/**
 * After heavy jobs that grew the server's own memory (an import's records are matched and
 * written on its thread), a collection that gives back the pages its heap no longer uses. V8
 * keeps every page a collection frees for its own reuse, and gives the pool back only in a
 * collection made to reduce memory; its memory reducer, which makes one for a page gone to
 * the background, never does in a server (Node.js never says it is in the background). So
 * the server held the largest heap it had ever had, long after (decision 0081). The
 * collection takes 100–200 ms of the server's thread, once the jobs that grew it by 32 MB
 * have ended.
 */
export function giveMemoryBackAfter(
  jobs: HeavyJobs,
  logger: Logger,
  options: { residentBytes?: () => number; giveBack?: () => void } = {},
): () => void {
  const resident = options.residentBytes ?? (() => process.memoryUsage.rss());
  const giveBack = options.giveBack ?? (() => collectGarbage('reduce'));
  let before = resident();
  let pending: NodeJS.Timeout | undefined;
  const stopBegin = jobs.onBegin(() => {
    // Measured from where the first of the jobs under way began.
    if (jobs.running === 1 && !pending) before = resident();
  });
  const stopEnd = jobs.onEnd(() => {
    if (pending || resident() - before < GROWTH_TO_GIVE_BACK) return;
    pending = setTimeout(() => {
      pending = undefined;
      const held = resident();
      const started = performance.now();
      giveBack();
      before = resident();
      logger.info(
        {
          beforeMb: Math.round(held / MB),
          afterMb: Math.round(before / MB),
          ms: Math.round(performance.now() - started),
        },
        'memory given back after heavy jobs',
      );
    }, GIVE_BACK_AFTER_MS);
    pending.unref();
  });
  return () => {
    stopBegin();
    stopEnd();
    clearTimeout(pending);
  };
}
