/**
 * Load measurements, in this process (the servers run in their own), each sampling the
 * server's memory and reading its CPU time while it runs:
 *
 * - `runLoad`: autocannon holding a number of connections open against one request for a
 *   number of seconds, each connection sending its next request as its answer comes (the
 *   most the server can answer). Latencies are taken from every response at full precision
 *   (autocannon's own histogram keeps whole milliseconds).
 * - `runSteady`: a steady, open-loop rate: one request every 1/rate seconds whatever the
 *   answers do, each latency counted from when its request was due (so a stall delays the
 *   requests behind it as it would delay a household's), sent from a worker thread of its
 *   own (bench/steady-worker.ts says why). autocannon's own rate option is not this: it
 *   sends each second's budget back to back at the start of the second.
 */
import { Worker } from 'node:worker_threads';
import autocannon from 'autocannon';
import type { LoadRequest, SteadyOrder, SteadyOutcome } from './steady-worker';

export type { LoadRequest };

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Responses with another status than expected, errors and time-outs: each should be 0. */
  unexpected: number;
  /** The unexpected statuses, and how often each came. */
  unexpectedStatuses: Record<string, number>;
  /** The most resident memory the watched process held during the load, in bytes. */
  peakRss: number;
  /** CPU time the server spent per answered request: the cost, whatever else the machine does. */
  cpuMsPerRequest: number;
}

export function percentile(sorted: readonly number[], share: number): number {
  if (!sorted.length) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

interface WatchedServer {
  rss: () => number;
  cpuSeconds: () => number;
}

/** Samples the server's memory and reads its CPU time around a measurement. */
function watch(server: WatchedServer) {
  let peakRss = server.rss();
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, server.rss());
  }, 100);
  const cpuBefore = server.cpuSeconds();
  const started = performance.now();
  return () => {
    clearInterval(sampler);
    return {
      peakRss,
      cpuSeconds: server.cpuSeconds() - cpuBefore,
      elapsedSeconds: (performance.now() - started) / 1000,
    };
  };
}

export async function runLoad(
  request: LoadRequest,
  options: {
    connections: number;
    seconds: number;
    /** The server under load: its memory is sampled and its CPU time read. */
    server: WatchedServer;
  },
): Promise<LoadResult> {
  const latencies: number[] = [];
  const unexpectedStatuses: Record<string, number> = {};
  const stop = watch(options.server);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: request.url,
        method: request.method,
        headers: request.headers,
        body: request.body,
        connections: options.connections,
        duration: options.seconds,
        pipelining: 1,
        timeout: 30,
      },
      (error: unknown, finished) => (error ? reject(error) : resolve(finished)),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode === request.expectedStatus) latencies.push(responseTime);
      else unexpectedStatuses[statusCode] = (unexpectedStatuses[statusCode] ?? 0) + 1;
    });
  });
  const watched = stop();
  return summariseLoad(latencies, watched, {
    ...unexpectedStatuses,
    ...(result.errors ? { errors: result.errors } : {}),
    ...(result.timeouts ? { timeouts: result.timeouts } : {}),
  });
}

function summariseLoad(
  latencies: number[],
  watched: ReturnType<ReturnType<typeof watch>>,
  unexpectedStatuses: Record<string, number>,
): LoadResult {
  latencies.sort((a, b) => a - b);
  const unexpected = Object.values(unexpectedStatuses).reduce((sum, count) => sum + count, 0);
  return {
    requestsPerSecond: latencies.length / watched.elapsedSeconds,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    requests: latencies.length,
    unexpected,
    unexpectedStatuses,
    peakRss: watched.peakRss,
    cpuMsPerRequest: latencies.length ? (watched.cpuSeconds * 1000) / latencies.length : Number.NaN,
  };
}

export async function runSteady(
  request: LoadRequest,
  options: { rate: number; seconds: number; server: WatchedServer },
): Promise<LoadResult> {
  const order: SteadyOrder = { request, rate: options.rate, seconds: options.seconds };
  const worker = new Worker(new URL('./steady-worker.ts', import.meta.url), { workerData: order });
  const stopped = new Promise<never>((_, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the steady load stopped (exit ${code})`)));
  });
  const nextMessage = <T>() =>
    Promise.race([new Promise<T>((resolve) => worker.once('message', resolve)), stopped]);
  await nextMessage<'ready'>();
  const stop = watch(options.server);
  worker.postMessage('go');
  const outcome = await nextMessage<SteadyOutcome>();
  const watched = stop();
  stopped.catch(() => undefined);
  await worker.terminate();
  return summariseLoad(outcome.latencies, watched, outcome.unexpectedStatuses);
}
