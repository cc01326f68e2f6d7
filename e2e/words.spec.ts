/**
 * Words (issue 33.8): a refusal shows next to the field it is about, a stale error toast
 * goes when the next thing succeeds, and the screens use one name per thing.
 */
import { TOAST_DURATION_MS } from '../src/web/lib/toast-duration';
import { addMemberViaApi, expect, expectAccessible, test } from './fixtures';

test('a refusal from the server shows under its field, and the next success clears its toast', async ({
  page,
  user,
}) => {
  void user;
  const leo = await addMemberViaApi(page, { name: 'Leo' });
  await page.goto('/visits/new');
  await page.getByLabel('Visit Purpose').fill('Ear check');
  await page.getByLabel('Visit Date').fill('2030-05-01T10:00');
  await page.getByLabel('Family Member').selectOption({ label: 'Leo' });
  // Leo is removed (on another device, say) while the form is open.
  const removed = await page.request.delete(`/api/family-members/${leo.id}`, {
    headers: { origin: new URL(page.url()).origin },
  });
  expect(removed.ok()).toBe(true);

  // The error's toast cannot be on the page before this click, so its own time (the
  // toaster's duration) cannot run out before that long from now.
  const ownTimeEnds = Date.now() + TOAST_DURATION_MS;
  await page.getByRole('button', { name: 'Save Visit' }).click();
  const stale = page.getByText('Error saving visit');
  await expect(stale).toBeVisible();
  await expect(page.getByLabel('Family Member')).toHaveAccessibleDescription(
    /must be one of your family members/,
  );

  await page.getByLabel('Family Member').selectOption({ index: 0 });
  await page.getByRole('button', { name: 'Save Visit' }).click();
  await expect(page.getByText('Visit created', { exact: true })).toBeVisible();
  // Gone with the success, not when its own time runs out. The deadline is the error's own
  // time rather than a fixed moment after the success, which a loaded machine reaches
  // before the toaster has drawn its next frame.
  const beforeOwnTime = ownTimeEnds - Date.now();
  expect(beforeOwnTime, "the save took the error toast's whole time").toBeGreaterThan(0);
  await expect(stale).toBeHidden({ timeout: beforeOwnTime });
  await expectAccessible(page);
});

test('Profile Settings and the share dialog use the names of the rest of the app', async ({
  page,
  user,
}) => {
  void user;
  await page.goto('/profile-settings');
  await expect(page.getByRole('heading', { name: 'Sign Out', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Sign out', exact: true })).toHaveCount(0);
  await page.goto('/share');
  await page.getByRole('button', { name: 'Generate Share Link', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Generate Share Link' });
  await expect(dialog.getByRole('checkbox', { name: 'Shots' })).toBeChecked();
  await expect(dialog.getByRole('checkbox', { name: 'Immunizations' })).toHaveCount(0);
});
