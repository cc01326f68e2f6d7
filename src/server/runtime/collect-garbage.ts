/**
 * A garbage collection, asked for where memory outside V8's heap becomes garbage faster than
 * V8 would collect it on its own, because V8 does not see it (or sees it late):
 *
 * - a request's body arrives in chunks, each a Buffer of its own (up to 64 kB, copied out of
 *   the socket); once written it is garbage, but its bytes are outside the heap, and V8
 *   collects for them only when they pass 64 MB: a 25 MB upload left them all resident
 *   (+22 MB of the server's memory on its first upload). A collection of the young
 *   generation frees them; it holds what requests in flight hold, a few MB at most, and
 *   takes about a millisecond.
 * - a PDF page drawn at 300 dpi for OCR leaves canvases behind (34 MB each, in Skia's memory,
 *   which V8 does not count at all): the document-text thread collects everything between
 *   two pages, off the server's thread.
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
