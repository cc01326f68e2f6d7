/**
 * One load measurement: autocannon, in this process (the servers run in their own), holding
 * a number of connections open against one request for a number of seconds. Latencies are
 * taken from every response at full precision (autocannon's own histogram keeps whole
 * milliseconds), and the server's memory is sampled while the load runs.
 */
import autocannon from 'autocannon';

export interface LoadRequest {
  url: string;
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  expectedStatus: number;
}

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

export async function runLoad(
  request: LoadRequest,
  options: {
    connections: number;
    seconds: number;
    /** Requests per second over all connections; without it, as fast as answers come. */
    rate?: number;
    /** The server under load: its memory is sampled and its CPU time read. */
    server: { rss: () => number; cpuSeconds: () => number };
  },
): Promise<LoadResult> {
  const latencies: number[] = [];
  let unexpected = 0;
  const unexpectedStatuses: Record<string, number> = {};
  let peakRss = options.server.rss();
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, options.server.rss());
  }, 100);
  const cpuBefore = options.server.cpuSeconds();

  const started = performance.now();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: request.url,
        method: request.method,
        headers: request.headers,
        body: request.body,
        connections: options.connections,
        duration: options.seconds,
        ...(options.rate ? { overallRate: options.rate } : {}),
        pipelining: 1,
        timeout: 30,
      },
      (error: unknown, finished) => (error ? reject(error) : resolve(finished)),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode === request.expectedStatus) latencies.push(responseTime);
      else {
        unexpected += 1;
        unexpectedStatuses[statusCode] = (unexpectedStatuses[statusCode] ?? 0) + 1;
      }
    });
  });
  const elapsedSeconds = (performance.now() - started) / 1000;
  const cpuSeconds = options.server.cpuSeconds() - cpuBefore;
  clearInterval(sampler);

  latencies.sort((a, b) => a - b);
  return {
    requestsPerSecond: latencies.length / elapsedSeconds,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    requests: latencies.length,
    unexpected: unexpected + result.errors + result.timeouts,
    unexpectedStatuses: {
      ...unexpectedStatuses,
      ...(result.errors ? { errors: result.errors } : {}),
      ...(result.timeouts ? { timeouts: result.timeouts } : {}),
    },
    peakRss,
    cpuMsPerRequest: latencies.length ? (cpuSeconds * 1000) / latencies.length : Number.NaN,
  };
}
