/**
 * How long the test's own thread went without turning its event loop while some work ran:
 * what a request arriving meanwhile would have waited before the server could look at it.
 * `gaps` are all the waits between two turns, for a test that must not fail on one pause
 * the machine made (another process on the core) rather than the work.
 */
export async function longestStall<T>(
  work: () => Promise<T>,
): Promise<{ result: T; stallMs: number; elapsedMs: number; gaps: number[] }> {
  const started = performance.now();
  let last = started;
  const gaps: number[] = [];
  const ticker = setInterval(() => {
    const now = performance.now();
    gaps.push(now - last);
    last = now;
  }, 2);
  try {
    const result = await work();
    const ended = performance.now();
    gaps.push(ended - last);
    return { result, stallMs: Math.max(...gaps), elapsedMs: ended - started, gaps };
  } finally {
    clearInterval(ticker);
  }
}
