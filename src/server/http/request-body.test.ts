/**
 * A request's body is read from Node's own request, at the pace its reader takes it: a file
 * sent faster than it is written is not held in memory. A Hono app served by the Node server,
 * a body sent in chunks; the reader takes its time over the first chunk, and in that time no
 * more than Node's own buffer of the rest may have been read off the socket.
 */
import { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import { requestBody } from './request-body';

describe('requestBody', () => {
  const app = new Hono().post('/upload', async (c) => {
    const body = requestBody(c);
    let first = true;
    let received = 0;
    let bufferedWhileBusy = 0;
    for await (const chunk of body) {
      received += chunk.byteLength;
      if (first) {
        first = false;
        // Busy with the first chunk, as a slow disk would keep the reader.
        await new Promise((resolve) => setTimeout(resolve, 300));
        bufferedWhileBusy = (body as IncomingMessage).readableLength;
      }
    }
    return c.json({ fromNode: body instanceof IncomingMessage, received, bufferedWhileBusy });
  });
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reads Node’s request, which pauses while its reader is busy', async () => {
    const size = 16 * 1024 * 1024;
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/upload`, {
      method: 'POST',
      body: new Uint8Array(size),
    });
    const answer = (await response.json()) as {
      fromNode: boolean;
      received: number;
      bufferedWhileBusy: number;
    };
    expect(answer.fromNode).toBe(true);
    expect(answer.received).toBe(size);
    // Node's own buffer (16 kB) and what the socket held: far from the 16 MB sent.
    expect(answer.bufferedWhileBusy).toBeLessThan(2 * 1024 * 1024);
  });

  it('reads the Request’s body where there is no Node request (a request made in process)', async () => {
    const response = await app.request('/upload', { method: 'POST', body: 'hello' });
    expect(await response.json()).toMatchObject({ fromNode: false, received: 5 });
  });
});
