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
 *   (documents/pdf-pages.ts).
 *
 * Node.js exposes no collection without `--expose-gc` on its command line; the flag set here
 * before the function is first asked for gives the same function, to this module alone.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Collect = (options: { type: 'minor' | 'major'; execution: 'sync' | 'async' }) => void;

let collect: Collect | undefined;

/** Collects the young generation (`minor`) or the whole heap (`major`) now. */
export function collectGarbage(type: 'minor' | 'major'): void {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as Collect;
  }
  collect({ type, execution: 'sync' });
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
