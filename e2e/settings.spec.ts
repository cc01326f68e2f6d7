import { expect, expectAccessible, test } from './fixtures';

test('profile settings show the email read-only and update the full name everywhere', async ({
  page,
  user,
}) => {
  await page.goto('/profile-settings');
  await expect(page.getByLabel('Email')).toHaveValue(user.email);
  await expect(page.getByLabel('Email')).toHaveAttribute('readonly', '');
  await expect(page.getByLabel('Full Name')).toHaveValue(user.name);
  await expectAccessible(page);

  await page.getByLabel('Full Name').fill('Beatrice Okafor');
  await page.getByRole('button', { name: 'Update Profile' }).click();
  await expect(page.getByText('Profile updated successfully')).toBeVisible();

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Timeline' })
    .click();
  await expect(page.getByRole('heading', { name: 'Welcome, Beatrice!' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Account' })).toHaveText('BO');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Welcome, Beatrice!' })).toBeVisible();
});

test('sign out from profile settings returns to /auth', async ({ page, user }) => {
  void user;
  await page.goto('/profile-settings');
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await page.goto('/profile-settings');
  await expect(page).toHaveURL(/\/auth$/);
});

test('each share card announces that it is coming, under the privacy notice', async ({
  page,
  user,
}) => {
  void user;
  await page.goto('/share');
  await expect(page.getByText(/encrypted/)).toBeVisible();
  await expect(page.getByText(/revoke/)).toBeVisible();
  await expect(page.getByText(/expire after 7 days/)).toBeVisible();
  await expectAccessible(page);
  for (const [card, kind] of [
    ['Export as PDF', 'PDF'],
    ['Share via Email', 'Email'],
    ['Share via Message', 'Message'],
    ['Generate Share Link', 'Link'],
  ] as const) {
    await page.getByRole('button', { name: new RegExp(card) }).click();
    await expect(page.getByText(`Sharing via ${kind} will be available soon.`)).toBeVisible();
  }
});
