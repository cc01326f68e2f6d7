/**
 * How long the test's own thread went without turning its event loop while some work ran:
 * what a request arriving meanwhile would have waited before the server could look at it.
 */
export async function longestStall<T>(
  work: () => Promise<T>,
): Promise<{ result: T; stallMs: number; elapsedMs: number }> {
  const started = performance.now();
  let last = started;
  let stallMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 2);
  try {
    const result = await work();
    const ended = performance.now();
    return { result, stallMs: Math.max(stallMs, ended - last), elapsedMs: ended - started };
  } finally {
    clearInterval(ticker);
  }
}
