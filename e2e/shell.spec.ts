import { SCREEN_PATHS } from '../src/shared/screen-paths';
import { expect, expectAccessible, test } from './fixtures';

test('the 404 page links home', async ({ page, user }) => {
  void user;
  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Return to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('every screen answers 200, and only a path no screen has answers 404', async ({
  page,
  user,
}) => {
  void user;
  const id = '0197c3a2-5b1e-7c4d-8e9f-a0b1c2d3e4f5';
  for (const path of SCREEN_PATHS) {
    const url = path.replace(/:[a-z]+/gi, id);
    expect((await page.request.get(url)).status(), url).toBe(200);
  }
  for (const [url, heading] of [
    ['/documents', 'Documents'],
    ['/search?q=flu', 'Search'],
  ] as const) {
    const response = await page.goto(url);
    expect(response?.status(), url).toBe(200);
    await expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
  }
  const missing = await page.goto(`/documents/${id}/more`);
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
});

test('asked for less motion, a screen does not move, but a spinner still turns', async ({
  page,
}) => {
  await page.goto('/auth');
  const signIn = page.getByRole('button', { name: 'Sign In', exact: true });
  const motion = () =>
    signIn.evaluate((button) => {
      const spinner = document.createElement('span');
      spinner.className = 'animate-spin';
      document.body.append(spinner);
      const turning = getComputedStyle(spinner).animationIterationCount;
      spinner.remove();
      return { transition: getComputedStyle(button).transitionDuration, turning };
    });
  // The browser tests ask for less motion (playwright.config.ts), as a person may.
  expect(await motion()).toEqual({ transition: '1e-05s', turning: 'infinite' });
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  expect(await motion()).toEqual({ transition: '0.15s', turning: 'infinite' });
});

test('the 404 page shows without a session too', async ({ page }) => {
  await page.goto('/nothing-here');
  await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
  // The password reset screen needs no session either, and is no 404.
  const reset = await page.goto('/reset-password?token=abc');
  expect(reset?.status()).toBe(200);
  await expect(page.getByLabel('New Password')).toBeVisible();
});

test(
  'the bottom navigation and the Add New dialog reach every screen',
  { tag: '@layout' },
  async ({ page, user }) => {
    void user;
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const name of ['Timeline', 'List', 'Share', 'Contacts']) {
      await expect(nav.getByRole('link', { name })).toBeVisible();
    }
    await nav.getByRole('link', { name: 'List' }).click();
    await expect(page).toHaveURL(/\/list$/);
    // Each card is named by its title alone (its line below describes it).
    const cards = ['Visits', 'Medications', 'Shots', 'Notes', 'Health History', 'Insurance'];
    for (const name of [...cards, 'Allergies']) {
      await expect(page.getByRole('link', { name, exact: true })).toBeVisible();
    }
    await expectAccessible(page);

    await nav.getByRole('button', { name: 'Add' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New' });
    const entries = [
      'New Visit',
      'New Medication',
      'New Shot',
      'New Note',
      'New Condition',
      'New Insurance',
    ];
    for (const name of entries) await expect(dialog.getByRole('link', { name })).toBeVisible();
    await expectAccessible(page);
    await dialog.getByRole('link', { name: 'New Shot' }).click();
    await expect(page).toHaveURL(/\/shots\/new$/);

    await nav.getByRole('link', { name: 'Share' }).click();
    await expect(page.getByRole('heading', { name: 'Share Health Records' })).toBeVisible();
    await nav.getByRole('link', { name: 'Contacts' }).click();
    await expect(page).toHaveURL(/\/contacts$/);
    await nav.getByRole('link', { name: 'Timeline' }).click();
    await expect(page.getByRole('heading', { name: /^Welcome/ })).toBeVisible();
  },
);

test(
  'the account dialog opens the profile and the family members',
  { tag: '@layout' },
  async ({ page, user }) => {
    void user;
    await page.goto('/');
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('link', { name: 'Family Members' }).click();
    await expect(page).toHaveURL(/\/profiles$/);
    await expect(page.getByRole('heading', { name: 'Family Profiles' })).toBeVisible();
    await page.getByRole('link', { name: 'Back' }).click();
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('link', { name: 'User Profile' }).click();
    await expect(page).toHaveURL(/\/profile-settings$/);
  },
);

test(
  'each screen names itself in the tab title and moves focus to its heading',
  { tag: '@layout' },
  async ({ page, user }) => {
    void user;
    await page.goto('/');
    await expect(page).toHaveTitle('Welcome, Ann! · Kin Health');
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'List' })
      .click();
    await expect(page).toHaveTitle('Health Records · Kin Health');
    await expect(page.getByRole('heading', { name: 'Health Records', level: 1 })).toBeFocused();
    await page.getByRole('link', { name: /^Visits/ }).click();
    await expect(page).toHaveTitle('Visits · Kin Health');
    await expect(page.getByRole('heading', { name: 'Visits', level: 1 })).toBeFocused();
  },
);
