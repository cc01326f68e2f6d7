import { afterEach, describe, expect, it, vi } from 'vitest';
import { whenReachable } from './when-reachable';

function setOnline(online: boolean) {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(online);
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('whenReachable', () => {
  it('waits for the network when a download fails offline, then tries again', async () => {
    setOnline(false);
    let tries = 0;
    const load = vi.fn(() =>
      ++tries < 3 ? Promise.reject(new Error('offline')) : Promise.resolve('part'),
    );
    let settled = false;
    const loading = whenReachable(load).then((value) => {
      settled = true;
      return value;
    });
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    expect(load).toHaveBeenCalledTimes(1);

    window.dispatchEvent(new Event('online'));
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(2));
    expect(settled).toBe(false);
    setOnline(true);
    window.dispatchEvent(new Event('online'));
    await expect(loading).resolves.toBe('part');
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('tries once more a moment after failing online, then fails as the download did', async () => {
    vi.useFakeTimers();
    setOnline(true);
    const load = vi.fn(() => Promise.reject(new Error('Server down')));
    const loading = whenReachable(load);
    const failed = expect(loading).rejects.toThrow('Server down');
    await vi.advanceTimersByTimeAsync(1000);
    await failed;
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('gives what the first try gave when it works', async () => {
    setOnline(true);
    await expect(whenReachable(() => Promise.resolve(7))).resolves.toBe(7);
  });
});
