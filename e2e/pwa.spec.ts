/**
 * The app on the home screen: a web manifest and a service worker that make it installable
 * (checked through the manifest, the worker's registration and Chromium's own
 * installability check), the app opening with the network cut, and no cache holding
 * anything of a user's after sign-out.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { SERVICE_WORKER_IN_TESTS_KEY } from '../src/web/service-worker/register';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium';
import { expect, expectAccessible, signUpViaApi, test } from './fixtures';

// The app leaves the worker out under automation unless a test asks for it.
test.beforeEach(async ({ context }) => {
  await context.addInitScript(
    (key) => localStorage.setItem(key, 'on'),
    SERVICE_WORKER_IN_TESTS_KEY,
  );
});

interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose?: string;
}

/** A PNG's width and height, from its IHDR chunk. */
function pngSize(bytes: Buffer): string {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

/**
 * Opens the timeline (signed in), then waits for the worker to be installed (the shell
 * precached) and active; answers the worker's script URL.
 */
async function openTimelineWithWorker(page: Page): Promise<string> {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: /^Welcome/ })).toBeVisible();
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return registration.active?.scriptURL ?? '';
  });
}

async function cacheContents(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate(async () => {
    const contents: Record<string, string[]> = {};
    for (const name of await caches.keys()) {
      const requests = await (await caches.open(name)).keys();
      contents[name] = requests.map((request) => new URL(request.url).pathname);
    }
    return contents;
  });
}

test('the manifest names the app, its colours, start and icons at the sizes browsers want', async ({
  page,
}) => {
  await page.goto('/auth');
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute(
    'href',
    '/manifest.webmanifest',
  );
  const response = await page.request.get('/manifest.webmanifest');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toMatch(/^application\/manifest\+json/);
  const manifest = (await response.json()) as Record<string, unknown> & {
    icons: ManifestIcon[];
  };
  expect(manifest).toMatchObject({
    name: 'Kin Health',
    short_name: expect.any(String),
    description: expect.any(String),
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: '#0f766e',
    background_color: '#f4f7f7',
  });
  // The theme colour is the app's own, as the page declares it.
  await expect(
    page.locator('meta[name="theme-color"][media="(prefers-color-scheme: light)"]'),
  ).toHaveAttribute('content', manifest.theme_color as string);

  const purposes = (icon: ManifestIcon) => (icon.purpose ?? 'any').split(/\s+/);
  const anySizes = manifest.icons.filter((icon) => purposes(icon).includes('any'));
  expect(anySizes.map((icon) => icon.sizes)).toEqual(
    expect.arrayContaining(['192x192', '512x512']),
  );
  expect(manifest.icons.some((icon) => purposes(icon).includes('maskable'))).toBe(true);
  for (const icon of manifest.icons) {
    const image = await page.request.get(icon.src);
    expect(image.status(), icon.src).toBe(200);
    expect(image.headers()['content-type'], icon.src).toBe('image/png');
    expect(icon.type).toBe('image/png');
    expect(pngSize(await image.body()), icon.src).toBe(icon.sizes);
  }

  const appleIcon = await page.locator('link[rel="apple-touch-icon"]').getAttribute('href');
  const apple = await page.request.get(appleIcon ?? '');
  expect(apple.headers()['content-type']).toBe('image/png');
  expect(pngSize(await apple.body())).toBe('180x180');
});

test('the app installs: its worker controls the page, and Chromium finds nothing missing', async ({
  playwright,
}, testInfo) => {
  // Chromium's installability check refuses any off-the-record profile, and every test's
  // own browser context is one: this test runs in a profile of its own on disk.
  const profile = mkdtempSync(path.join(tmpdir(), 'kin-pwa-'));
  const context = await playwright.chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    baseURL: testInfo.project.use.baseURL,
    viewport: testInfo.project.use.viewport ?? null,
  });
  try {
    await context.addInitScript(
      (key) => localStorage.setItem(key, 'on'),
      SERVICE_WORKER_IN_TESTS_KEY,
    );
    const page = context.pages()[0] ?? (await context.newPage());
    await signUpViaApi(page);
    expect(await openTimelineWithWorker(page)).toMatch(/\/sw\.js$/);
    await page.reload();
    await expect(page.getByRole('heading', { name: /^Welcome/ })).toBeVisible();
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(
      /\/sw\.js$/,
    );

    const cdp = await context.newCDPSession(page);
    const { url, errors } = await cdp.send('Page.getAppManifest');
    expect(url).toMatch(/\/manifest\.webmanifest$/);
    expect(errors).toEqual([]);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

test('with the network cut, the app opens from its shell and says it is offline', async ({
  page,
  context,
  user,
}) => {
  void user;
  await openTimelineWithWorker(page);

  // While open: the network drops, the app says so, and says nothing once it is back.
  const status = page.getByRole('status').filter({ hasText: 'You are offline' });
  await context.setOffline(true);
  await expect(status).toBeVisible();
  await context.setOffline(false);
  await expect(status).toHaveCount(0);

  // Opened with no network: the shell from the worker's cache, not a browser error.
  await context.setOffline(true);
  await page.reload();
  await expect(status).toBeVisible();
  // The session check waits for the network rather than seem to load forever.
  await expect(page.getByText('Waiting for a connection...')).toBeVisible();
  await page.goto('/medications');
  await expect(status).toBeVisible();
  await expect(page).toHaveTitle(/Kin Health/);

  // No network, and no shell either (evicted): the worker's own page, and a way back.
  await page.evaluate(async () => {
    for (const name of await caches.keys()) await caches.delete(name);
  });
  await page.goto('/visits');
  await expect(page.getByRole('heading', { name: 'You are offline' })).toBeVisible();
  await expectAccessible(page);
  await context.setOffline(false);
  await page.getByRole('link', { name: 'Try again' }).click();
  await expect(page).toHaveURL(/\/visits$/);
  await expect(page.getByRole('heading', { name: 'Visits' })).toBeVisible();
});

test('with no network and no shell, the worker’s page speaks the browser’s language', async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ baseURL, locale: 'es-ES' });
  try {
    await context.addInitScript(
      (key) => localStorage.setItem(key, 'on'),
      SERVICE_WORKER_IN_TESTS_KEY,
    );
    const page = await context.newPage();
    await page.goto('/auth');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      for (const name of await caches.keys()) await caches.delete(name);
    });
    await context.setOffline(true);
    await page.goto('/visits');
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.getByRole('heading', { name: 'No hay conexión' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Intentar de nuevo' })).toBeVisible();
    await expectAccessible(page);
  } finally {
    await context.close();
  }
});

test('no cache holds health data: the API is never stored, and sign-out clears the rest', async ({
  page,
  user,
}) => {
  void user;
  await openTimelineWithWorker(page);
  await page.reload();
  await page.goto('/visits');
  await expect(page.getByRole('heading', { name: 'Visits' })).toBeVisible();

  const before = await cacheContents(page);
  const names = Object.keys(before);
  expect(names).toHaveLength(1);
  expect(names[0]).toMatch(/^kin-shell-/);
  const shell = before[names[0] ?? ''] ?? [];
  expect(shell).toContain('/');
  expect(shell.some((path) => path.startsWith('/assets/'))).toBe(true);
  expect(shell.filter((path) => path.startsWith('/api/'))).toEqual([]);
  // The build's compressed copies (.br, .gz) are the server's to send, not the shell's.
  expect(shell.filter((path) => /\.(br|gz|map)$/.test(path))).toEqual([]);

  // A cache that could hold a user's answers (as a later runtime cache might) goes at sign-out.
  await page.evaluate(async () => {
    const cache = await caches.open('kin-data');
    await cache.put('/api/visits', new Response('{"items":[]}'));
  });
  await page.goto('/profile-settings');
  await page.getByRole('button', { name: 'Sign Out' }).click();
  // The sign-in screen shows once the caches are gone: no waiting here. (Only their names
  // are read first: opening a cache by name would make it again.)
  await expect(page).toHaveURL(/\/auth$/);
  expect(await page.evaluate(() => caches.keys())).toEqual([expect.stringMatching(/^kin-shell-/)]);
  const after = await cacheContents(page);
  expect(
    Object.values(after)
      .flat()
      .filter((path) => path.startsWith('/api/')),
  ).toEqual([]);
});
