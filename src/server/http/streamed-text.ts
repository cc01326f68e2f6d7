/**
 * A body written as it is read (FHIR $everything, 'Download my data'): text pieces as bytes,
 * for a web Response. Before each piece the server's thread first answers whatever else is
 * waiting: rows read from SQLite and a socket that takes every piece at once would otherwise
 * make the whole answer one unbroken stretch of work (a busy person's 3.5 MB of FHIR held up
 * every other request for 0.2 s).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

export function streamedText(pieces: AsyncGenerator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      await nextTurn();
      const next = await pieces.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await pieces.return(undefined);
    },
  });
}
