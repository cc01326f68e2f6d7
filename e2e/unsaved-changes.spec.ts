/**
 * Nothing typed is lost (issue 33.5): leaving a form with changes asks first, an unsaved
 * form is kept as a draft for the tab and offered back, and a save made offline waits for
 * the network with the form kept and the offline notice in sight.
 */
import type { Page } from '@playwright/test';
import { expect, expectAccessible, test } from './fixtures';

async function startVisit(page: Page) {
  await page.goto('/visits/new');
  await page.getByLabel('Visit Purpose').fill('Ear check');
  await page.getByLabel('Doctor Name').fill('Dr. Okafor');
}

test(
  'leaving a form with changes asks first, by Back, a tab or a link',
  { tag: '@layout' },
  async ({ page, user }) => {
    void user;
    await page.goto('/visits');
    await page.getByRole('button', { name: 'Add New Visit' }).click();
    await page.getByLabel('Visit Purpose').fill('Ear check');
    await page.getByLabel('Doctor Name').fill('Dr. Okafor');

    // The browser's Back button.
    await page.goBack();
    const confirm = page.getByRole('alertdialog', { name: 'Discard changes?' });
    await expect(confirm).toBeVisible();
    await expectAccessible(page);
    await confirm.getByRole('button', { name: 'Keep editing' }).click();
    await expect(confirm).toBeHidden();
    await expect(page).toHaveURL(/\/visits\/new$/);
    await expect(page.getByLabel('Doctor Name')).toHaveValue('Dr. Okafor');

    // A tab of the bottom navigation.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Timeline' })
      .click();
    await expect(confirm).toBeVisible();
    await confirm.getByRole('button', { name: 'Keep editing' }).click();
    await expect(page.getByLabel('Visit Purpose')).toHaveValue('Ear check');

    // The screen's own back link; this time the typing is let go.
    await page.getByRole('link', { name: 'Back' }).click();
    await confirm.getByRole('button', { name: /^Discard/ }).click();
    await expect(page).toHaveURL(/\/visits$/);
    // Discarded means gone: the next new visit starts empty, with nothing offered back.
    await page.goto('/visits/new');
    await expect(page.getByLabel('Visit Purpose')).toHaveValue('');
    await expect(page.getByText('Restore your unsaved visit?')).toHaveCount(0);

    // A form left untouched does not ask.
    await page.getByRole('link', { name: 'Back' }).click();
    await expect(page).toHaveURL(/\/visits$/);
  },
);

test('an unsaved form is kept for the tab and offered back', async ({ page, user }) => {
  void user;
  // Leaving the site with changes asks the browser's own question; here the test says yes.
  page.on('dialog', (dialog) => void dialog.accept());
  await startVisit(page);
  await page.reload();
  await expect(page.getByText('Restore your unsaved visit?')).toBeVisible();
  await expect(page.getByLabel('Visit Purpose')).toHaveValue('');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByLabel('Visit Purpose')).toHaveValue('Ear check');
  await expect(page.getByLabel('Doctor Name')).toHaveValue('Dr. Okafor');
  // Never kept beyond the tab: the session's storage, not the browser's.
  expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain('Okafor');

  await page.getByLabel('Visit Date').fill('2030-05-01T10:00');
  await page.getByRole('button', { name: 'Save Visit' }).click();
  await expect(page.getByText('Visit created', { exact: true })).toBeVisible();
  // Saved, the draft is gone.
  await page.goto('/visits/new');
  await expect(page.getByRole('heading', { name: 'New Visit' })).toBeVisible();
  await expect(page.getByText('Restore your unsaved visit?')).toHaveCount(0);
  expect(await page.evaluate(() => JSON.stringify(sessionStorage))).not.toContain('Okafor');

  // Signing out forgets any draft.
  await startVisit(page);
  await page.goto('/');
  expect(await page.evaluate(() => JSON.stringify(sessionStorage))).toContain('Okafor');
  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  expect(await page.evaluate(() => JSON.stringify(sessionStorage))).not.toContain('Okafor');
});

test(
  'offline, Save says it will retry, keeps the form, and saves when the network returns',
  { tag: '@layout' },
  async ({ page, context, user }) => {
    void user;
    await startVisit(page);
    await page.getByLabel('Visit Date').fill('2030-05-01T10:00');
    await context.setOffline(true);
    const banner = page.getByText('You are offline.', { exact: true });
    await expect(banner).toBeVisible();
    await page.getByRole('button', { name: 'Save Visit' }).click();
    await expect(page.getByText('This visit will be saved when you are back online.')).toBeVisible({
      timeout: 2_000,
    });
    await expect(page.getByLabel('Visit Purpose')).toHaveValue('Ear check');
    // Scrolled to the foot of the form, the offline notice is still at the top of the screen.
    // (A short window, so that the form scrolls on a desktop too.)
    const width = page.viewportSize()?.width ?? 390;
    await page.setViewportSize({ width, height: 480 });
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
    await expect(banner).toBeInViewport();
    await expectAccessible(page);

    await context.setOffline(false);
    await expect(page.getByText('Visit created', { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/visits$/);
    await expect(page.getByRole('link', { name: /Ear check/ })).toBeVisible();
  },
);

test(
  'a save waiting for the network lets the screen be left, and still goes through',
  { tag: '@layout' },
  async ({ page, context, user }) => {
    void user;
    // From the list, so that its screen is loaded before the network goes.
    await page.goto('/visits');
    await page.getByRole('button', { name: 'Add New Visit' }).click();
    await page.getByLabel('Visit Purpose').fill('Ear check');
    await page.getByLabel('Visit Date').fill('2030-05-01T10:00');
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Save Visit' }).click();
    await expect(
      page.getByText('This visit will be saved when you are back online.'),
    ).toBeVisible();
    // Nothing to discard: what was typed is on its way.
    await page.getByRole('link', { name: 'Back' }).click();
    await expect(page).toHaveURL(/\/visits$/);
    await expect(page.getByRole('alertdialog')).toHaveCount(0);

    await context.setOffline(false);
    await expect(page.getByText('Visit created', { exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: /Ear check/ })).toBeVisible();
  },
);

test(
  'the lab panel keeps what is typed: it asks before leaving and offers a draft back',
  { tag: '@layout' },
  async ({ page, user }) => {
    void user;
    await page.goto('/labs');
    await page.getByRole('button', { name: 'Add Panel' }).click();
    await expect(page.getByRole('heading', { name: 'New Lab Panel' })).toBeVisible();
    // Untouched, it is left without a question.
    await page.getByRole('link', { name: 'Back' }).click();
    await expect(page).toHaveURL(/\/labs$/);
    await expect(page.getByRole('alertdialog')).toHaveCount(0);

    await page.getByRole('button', { name: 'Add Panel' }).click();
    await page.getByLabel('Lab', { exact: true }).fill('Quest Diagnostics');
    await page.getByLabel('Panel', { exact: true }).selectOption('Lipid panel');
    const row = (n: number) => page.getByRole('group', { name: `Row ${n}` });
    await row(2).getByLabel('Result').fill('162');

    // Back, a tab, Cancel: each asks.
    const confirm = page.getByRole('alertdialog', { name: 'Discard changes?' });
    await page.goBack();
    await expect(confirm).toBeVisible();
    await expect(confirm).toContainText('What you typed in this lab panel has not been saved.');
    await expectAccessible(page);
    await confirm.getByRole('button', { name: 'Keep editing' }).click();
    await expect(page).toHaveURL(/\/labs\/new\?panel/);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Timeline' })
      .click();
    await expect(confirm).toBeVisible();
    await confirm.getByRole('button', { name: 'Keep editing' }).click();
    await page.getByRole('link', { name: 'Cancel' }).click();
    await expect(confirm).toBeVisible();
    await confirm.getByRole('button', { name: 'Keep editing' }).click();
    await expect(row(2).getByLabel('Result')).toHaveValue('162');

    // Reloaded (the browser's own question answered yes): the draft is offered back.
    page.on('dialog', (dialog) => void dialog.accept());
    await page.reload();
    await expect(page.getByText('Restore your unsaved lab panel?')).toBeVisible();
    await expect(page.getByLabel('Lab', { exact: true })).toHaveValue('');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Restore' }).click();
    await expect(page.getByLabel('Lab', { exact: true })).toHaveValue('Quest Diagnostics');
    await expect(row(2).getByLabel('Test Name')).toHaveValue('LDL Cholesterol');
    await expect(row(2).getByLabel('Result')).toHaveValue('162');
    expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain('Quest');

    // Saved, nothing is asked and the draft is gone.
    await page.getByLabel('Collected Date').fill('2026-03-04');
    for (const n of [1, 3, 4]) await row(n).getByLabel('Result').fill('100');
    await page.getByRole('button', { name: 'Save Panel' }).click();
    await expect(page).toHaveURL(/\/labs$/);
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
    await expect(page.getByRole('link', { name: /LDL Cholesterol.*162 mg\/dL/ })).toBeVisible();
    expect(await page.evaluate(() => JSON.stringify(sessionStorage))).not.toContain('Quest');
    await page.goto('/labs/new?panel');
    await expect(page.getByRole('heading', { name: 'New Lab Panel' })).toBeVisible();
    await expect(page.getByText('Restore your unsaved lab panel?')).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath('lab-panel.png') });
  },
);
