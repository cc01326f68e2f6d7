/**
 * For tests: an HTTP server on 127.0.0.1 standing in for an ntfy server or a webhook's
 * receiver. It keeps every request (method, path, headers, body) and answers each with the
 * next status a test queued, or 200.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface NotificationReceiver {
  /** `http://127.0.0.1:{port}` */
  url: string;
  requests: ReceivedRequest[];
  /** The statuses the next requests are answered with, in turn (then 200 again). */
  answerWith(...statuses: number[]): void;
  /** The next request to come, or one already here past `from`. */
  next(from?: number, timeoutMs?: number): Promise<ReceivedRequest>;
  close(): Promise<void>;
}

export async function startNotificationReceiver(port = 0): Promise<NotificationReceiver> {
  const requests: ReceivedRequest[] = [];
  const statuses: number[] = [];
  const waiting: Array<() => void> = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const status = statuses.shift() ?? 200;
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ id: String(requests.length), event: 'message' }));
      for (const wake of waiting.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: listening } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${listening}`,
    requests,
    answerWith: (...next) => statuses.push(...next),
    async next(from = requests.length, timeoutMs = 90_000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length <= from) {
        if (Date.now() > deadline) throw new Error('No notification came');
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          setTimeout(resolve, 500);
        });
      }
      return requests[from]!;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
