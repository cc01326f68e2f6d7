/**
 * A collection of V8's young generation, asked for where a stream of bytes leaves its chunks
 * behind faster than V8 would collect them on its own. Each chunk of a request's body is a
 * Buffer of its own (up to 64 kB, copied out of the socket); once written it is garbage, but
 * its bytes are outside V8's heap, and V8 collects for them only when they pass 64 MB: a 25
 * MB upload left them all resident until then (+22 MB of the server's memory on its first
 * upload). Collecting the young generation frees them; it holds what requests in flight
 * hold, a few MB at most, and takes about a millisecond.
 *
 * Node.js exposes no collection without `--expose-gc` on its command line; the flag set here
 * before the function is asked for gives the same function, to this module alone.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Collect = (options: { type: 'minor' | 'major'; execution: 'sync' | 'async' }) => void;

let collect: Collect | undefined;

/** Collects the young generation now. */
export function collectYoungGarbage(): void {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as Collect;
  }
  collect({ type: 'minor', execution: 'sync' });
}

/** How many bytes a stream may leave behind between two collections. */
export const BYTES_BETWEEN_COLLECTIONS = 4 * 1024 * 1024;
