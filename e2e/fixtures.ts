/**
 * Browser-test helpers: a fresh user per test (signed up through the API, so a test about
 * something else does not spend its time on the sign-up form), and an accessibility check.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test as base, type Browser, type Page } from '@playwright/test';
import { unusedCode } from '../src/server/test/authenticator';

import { TEST_PASSCODE as PASSCODE } from '../src/server/test/test-passcode';

export { PASSCODE };

let counter = 0;
export function uniqueEmail(prefix = 'e2e'): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${process.pid}-${counter}@example.com`;
}

export interface TestUser {
  name: string;
  email: string;
  password: string;
}

export async function signUpViaApi(page: Page, name = 'Ann Lee'): Promise<TestUser> {
  const user = { name, email: uniqueEmail(), password: 'secret-password' };
  const baseURL = test.info().project.use.baseURL ?? '';
  const response = await page.request.post('/api/auth/sign-up/email', {
    data: { ...user, passcode: PASSCODE },
    headers: { origin: baseURL },
  });
  expect(response.status(), await response.text()).toBe(200);
  return user;
}

export async function addMemberViaApi(
  page: Page,
  member: { name: string; color?: string; date_of_birth?: string; sex?: 'female' | 'male' },
) {
  const baseURL = test.info().project.use.baseURL ?? '';
  const response = await page.request.post('/api/family-members', {
    data: member,
    headers: { origin: baseURL },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: string; name: string };
}

/** A second person, in a browser of their own, signed up. */
export async function secondAccount(browser: Browser, baseURL: string, name = 'Grace Kim') {
  const context = await browser.newContext({ baseURL, viewport: test.info().project.use.viewport });
  const page = await context.newPage();
  const user = await signUpViaApi(page, name);
  return { page, user, close: () => context.close() };
}

/**
 * The owner (`page`) shares a person with another account, which enters the one-time
 * Acceptance Code through the API: for a test about what sharing gives, not how it is done.
 */
export async function shareViaApi(
  page: Page,
  grantee: Page,
  grant: { personId: string; email: string; role: 'viewer' | 'editor'; allowExport?: boolean },
) {
  const headers = { origin: test.info().project.use.baseURL ?? '' };
  const given = await page.request.post('/api/household/grants', { data: grant, headers });
  expect(given.status(), await given.text()).toBe(201);
  const { acceptanceCode } = (await given.json()) as { acceptanceCode: string };
  const accepted = await grantee.request.post('/api/household/accept', {
    data: { code: acceptanceCode },
    headers,
  });
  expect(accepted.status(), await accepted.text()).toBe(204);
}

export async function createRecordViaApi(page: Page, path: string, data: Record<string, unknown>) {
  const baseURL = test.info().project.use.baseURL ?? '';
  const response = await page.request.post(`/api/${path}`, { data, headers: { origin: baseURL } });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: string };
}

/** A code an authenticator app shows now for a setup key (base32, spaces allowed). */
export function totpCode(setupKey: string): Promise<string> {
  return unusedCode(setupKey);
}

/** Turns two-factor sign-in on through the API, as the settings screen does. */
export async function enableTwoFactorViaApi(page: Page, password: string) {
  const baseURL = test.info().project.use.baseURL ?? '';
  const headers = { origin: baseURL };
  const enabled = await page.request.post('/api/auth/two-factor/enable', {
    data: { password },
    headers,
  });
  expect(enabled.status(), await enabled.text()).toBe(200);
  const { totpURI, backupCodes } = (await enabled.json()) as {
    totpURI: string;
    backupCodes: string[];
  };
  const setupKey = new URL(totpURI).searchParams.get('secret') ?? '';
  const confirmedWith = await totpCode(setupKey);
  const verified = await page.request.post('/api/auth/two-factor/verify-totp', {
    data: { code: confirmedWith },
    headers,
  });
  expect(verified.status(), await verified.text()).toBe(200);
  return { setupKey, backupCodes, confirmedWith };
}

/** Fills and sends the sign-in form; with two-factor on, the code step comes next. */
export async function signInWithForm(page: Page, user: TestUser, passcode = PASSCODE) {
  await page.goto('/auth');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByLabel('Friends & Family Passcode').fill(passcode);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

/**
 * Waits until nothing on the page moves: every finite animation and transition has ended
 * and none has begun for two frames (a toast mounts, then starts to fade in, a frame later).
 */
async function settle(page: Page) {
  await page.evaluate(async () => {
    const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
    const moving = () =>
      document
        .getAnimations()
        .filter(
          (animation) =>
            animation.playState !== 'finished' &&
            animation.effect?.getComputedTiming().iterations !== Infinity,
        );
    for (let round = 0; round < 50; round += 1) {
      const now = moving();
      if (now.length === 0) {
        await frame();
        await frame();
        if (moving().length === 0) return;
      }
      await Promise.all(now.map((animation) => animation.finished.catch(() => undefined)));
    }
  });
}

/** Counts the finite animations and transitions that begin from now on (see expectAccessible). */
async function watchMotion(page: Page) {
  await page.evaluate(() => {
    const state = window as unknown as { kinMotion?: number; kinMotionWatched?: boolean };
    state.kinMotion = 0;
    if (state.kinMotionWatched) return;
    state.kinMotionWatched = true;
    const count = (event: Event) => {
      const target = event.target;
      if (
        event.type === 'animationstart' &&
        target instanceof Element &&
        getComputedStyle(target).animationIterationCount === 'infinite'
      )
        return;
      state.kinMotion = (state.kinMotion ?? 0) + 1;
    };
    document.addEventListener('transitionrun', count, true);
    document.addEventListener('animationstart', count, true);
  });
}

const motionSince = (page: Page) =>
  page.evaluate(() => (window as unknown as { kinMotion?: number }).kinMotion ?? 0);

/**
 * Fails on any serious or critical WCAG 2.x A/AA violation on the page, judged while it is
 * still: once its animations have ended, and again if one began while axe was reading it (a
 * toast fading in or out has too little contrast halfway; on a busy machine one can start
 * during the check). Nothing is left out: a toast is checked too, once it is still.
 */
export async function expectAccessible(page: Page) {
  let serious: Awaited<ReturnType<AxeBuilder['analyze']>>['violations'] = [];
  for (let attempt = 0; attempt < 5; attempt += 1) {
    await settle(page);
    await watchMotion(page);
    const results = await new AxeBuilder({ page })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
      .analyze();
    serious = results.violations.filter((violation) =>
      ['serious', 'critical'].includes(violation.impact ?? ''),
    );
    if ((await motionSince(page)) === 0) break;
  }
  expect(
    serious.map(
      (violation) =>
        `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    ),
  ).toEqual([]);
}

export const test = base.extend<{ user: TestUser }>({
  user: async ({ page }, use) => {
    await use(await signUpViaApi(page));
  },
});

export { expect };

/** The calendar date `offsetDays` from today on this machine (the browser's), YYYY-MM-DD. */
export function localDay(offsetDays: number): string {
  const date = new Date();
  date.setDate(date.getDate() + offsetDays);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}
