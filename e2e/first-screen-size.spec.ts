/**
 * The first screens' compressed JavaScript stays within the benchmark's ceiling (bench/config.ts
 * `firstScreenJsCeilingKb`; its budget, `firstScreenJsKb`, is reported by the benchmark and
 * not met yet), counted as the benchmark counts it: every script the screen loads, each
 * compressed alone. Here so that a change which pulls a library into a first screen fails the
 * tests, not only the next benchmark run (a shared module with zod added 26 kB to `/auth`).
 */
import { gzipSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { budgets } from '../bench/config';
import { expect, test } from './fixtures';

const KB = 1000;

/** The scripts `path` loads until the network is quiet, compressed one by one, in kB. */
async function scriptsKb(page: Page, path: string) {
  const sizes = new Map<string, number>();
  const reading: Promise<void>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'script') return;
    reading.push(
      response.body().then((body) => void sizes.set(response.url(), gzipSync(body).length)),
    );
  });
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await Promise.all(reading);
  const total = [...sizes.values()].reduce((sum, bytes) => sum + bytes, 0) / KB;
  const files = [...sizes.entries()].map(([url, bytes]) => `${new URL(url).pathname} ${bytes}`);
  return { total, files };
}

test('the sign-in screen loads at most the ceiling of compressed JavaScript', async ({ page }) => {
  const { total, files } = await scriptsKb(page, '/auth');
  expect(total, files.join('\n')).toBeLessThanOrEqual(budgets.firstScreenJsCeilingKb);
});

test('the timeline loads at most the ceiling of compressed JavaScript', async ({ page, user }) => {
  void user;
  const { total, files } = await scriptsKb(page, '/');
  expect(total, files.join('\n')).toBeLessThanOrEqual(budgets.firstScreenJsCeilingKb);
});
