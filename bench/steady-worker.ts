/**
 * The steady, open-loop load of `runSteady` (bench/load.ts), in a worker thread of its own.
 *
 * Latency is counted from when each request was due, so any pause of the thread that
 * sends the requests counts as the server's. The orchestrating thread holds everything a
 * run keeps (about 60 MB alive), and while this load ran there, V8 collected that heap
 * every 0.7 s or so, with pauses of 5 to 16 ms (seen with --trace-gc): at 200 req/s,
 * enough late requests to set the p99, for the product and its ideal endpoint alike. A
 * worker's heap holds only this loop, so what is measured is the server.
 */
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { parentPort, workerData } from 'node:worker_threads';

/** A request the load repeats, and the status each answer must have. */
export interface LoadRequest {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  expectedStatus: number;
}

export interface SteadyOrder {
  request: LoadRequest;
  rate: number;
  seconds: number;
}

export interface SteadyOutcome {
  latencies: number[];
  unexpectedStatuses: Record<string, number>;
}

/** One request over a kept-alive connection; resolves with its status once the body is in. */
function send(request: LoadRequest, agent: http.Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(
      request.url,
      { method: request.method, headers: request.headers, agent },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

async function run({ request, rate, seconds }: SteadyOrder): Promise<SteadyOutcome> {
  // Enough sockets that a request never waits for a free one at this rate.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const latencies: number[] = [];
  const unexpectedStatuses: Record<string, number> = {};
  const interval = 1000 / rate;
  const total = Math.round(rate * seconds);
  const start = performance.now();
  const sent: Promise<void>[] = [];
  for (let index = 0; index < total; index += 1) {
    const due = start + index * interval;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    sent.push(
      send(request, agent).then(
        (status) => {
          if (status === request.expectedStatus) latencies.push(performance.now() - due);
          else unexpectedStatuses[status] = (unexpectedStatuses[status] ?? 0) + 1;
        },
        () => {
          unexpectedStatuses.errors = (unexpectedStatuses.errors ?? 0) + 1;
        },
      ),
    );
  }
  await Promise.all(sent);
  agent.destroy();
  return { latencies, unexpectedStatuses };
}

// Loaded and compiled: say so, and start when told (the server's watch starts then too).
const port = parentPort;
if (!port) throw new Error('bench/steady-worker.ts runs as a worker thread');
port.once('message', () => {
  void run(workerData as SteadyOrder).then((outcome) => port.postMessage(outcome));
});
port.postMessage('ready');
