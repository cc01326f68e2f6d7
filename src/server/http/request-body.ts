/**
 * A request's body as it arrives, a chunk at a time, read only as fast as its reader takes
 * it (an upload written to disk, an archive import): read from Node's own request, whose
 * flow pauses while the reader is busy. The web stream a Request carries is made from it by
 * `Readable.toWeb`, whose queue counts chunks where Node counts bytes (16,384 chunks): a
 * file sent faster than it is written would be held in memory, most of it at once (a 9.7 MB
 * upload added 18 MB to the server's memory that way). Where there is no Node request (a
 * request made in process), or something has begun to read it, the Request's body is read.
 */
import type { IncomingMessage } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import { Readable } from 'node:stream';
import type { Context } from 'hono';

export function requestBody(c: Context): AsyncIterable<Uint8Array> {
  const incoming = (c.env as { incoming?: IncomingMessage | Http2ServerRequest } | undefined)
    ?.incoming;
  if (incoming && !incoming.readableDidRead && !incoming.readableEnded) return incoming;
  const body = c.req.raw.body;
  return body ? (Readable.fromWeb(body as never) as AsyncIterable<Uint8Array>) : Readable.from([]);
}
