/**
 * The private calendar feed from Profile Settings: a link made, read by a calendar app with
 * no session, copied, and revoked after a confirmation.
 */
import { createRecordViaApi, expect, expectAccessible, test } from './fixtures';

test('a user makes a calendar link, a calendar app reads their visits from it, and they revoke it', async ({
  page,
  user,
  playwright,
}) => {
  void user;
  const inAMonth = new Date(Date.now() + 30 * 24 * 60 * 60 * 1000).toISOString();
  await createRecordViaApi(page, 'visits', {
    visit_name: 'Dental cleaning',
    doctor_name: 'Dr. Ruiz',
    office_name: 'Bright Smiles',
    visit_date: inAMonth,
  });
  await createRecordViaApi(page, 'history', { condition_name: 'Migraine', status: 'Active' });

  await page.goto('/profile-settings');
  await expect(page.getByRole('heading', { name: 'Calendar' })).toBeVisible();
  await page.getByRole('button', { name: 'Create Calendar Link' }).click();
  const field = page.getByLabel('Calendar Link', { exact: true });
  await expect(field).toHaveValue(/^http:\/\/localhost:\d+\/api\/calendar\/[\w-]{43}\.ics$/);
  await expect(field).toHaveAttribute('readonly', '');
  await expect(page.getByRole('button', { name: 'Copy Link' })).toBeVisible();
  await expectAccessible(page);
  const url = await field.inputValue();

  // A calendar app: no cookie, no origin.
  const app = await playwright.request.newContext();
  const feed = await app.get(url);
  expect(feed.status()).toBe(200);
  expect(feed.headers()['content-type']).toBe('text/calendar; charset=utf-8');
  const text = await feed.text();
  expect(text).toContain('SUMMARY:Dental cleaning');
  expect(text).toContain('LOCATION:Bright Smiles');
  expect(text).not.toContain('Migraine');

  await page.getByRole('button', { name: 'Revoke Calendar Link' }).click();
  const confirm = page.getByRole('alertdialog');
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByRole('button', { name: 'Revoke Calendar Link' })).toBeHidden();
  await expect(page.getByLabel('Calendar Link', { exact: true })).toBeHidden();
  expect((await app.get(url)).status()).toBe(404);
  await app.dispose();
});

test('a new calendar link asks first, since it ends the one calendars use; the link is also an Add to Calendar link', async ({
  page,
  user,
  playwright,
}) => {
  void user;
  await page.goto('/profile-settings');
  await page.getByRole('button', { name: 'Create Calendar Link' }).click();
  const field = page.getByLabel('Calendar Link', { exact: true });
  await expect(field).toHaveValue(/\.ics$/);
  const first = await field.inputValue();
  // Handed to the calendar app as a subscription.
  await expect(page.getByRole('link', { name: 'Add to Calendar' })).toHaveAttribute(
    'href',
    first.replace(/^http:/, 'webcal:'),
  );
  // Made on localhost: it says others cannot open it, and how to fix that.
  const warning = page.getByRole('note').filter({ hasText: 'Others cannot open this link.' });
  await expect(warning).toContainText('BASE_URL');
  // Long addresses wrap inside the Calendar card instead of running out of it.
  const card = page
    .locator('section, div')
    .filter({ has: page.getByRole('heading', { name: 'Calendar', exact: true }) })
    .last();
  const inside = async (locator: typeof field) => {
    const [outer, inner] = [await card.boundingBox(), await locator.boundingBox()];
    return inner!.x + inner!.width <= outer!.x + outer!.width;
  };
  expect(await inside(field)).toBe(true);
  expect(await inside(warning)).toBe(true);

  await page.getByRole('button', { name: 'Create Calendar Link' }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('This ends the link your calendars use');
  await expectAccessible(page);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(field).toHaveValue(first);
  const app = await playwright.request.newContext();
  expect((await app.get(first)).status()).toBe(200);

  await page.getByRole('button', { name: 'Create Calendar Link' }).click();
  await confirm.getByRole('button', { name: 'Create New Link' }).click();
  await expect(confirm).toBeHidden();
  await expect(field).not.toHaveValue(first);
  expect((await app.get(first)).status()).toBe(404);
  expect((await app.get(await field.inputValue())).status()).toBe(200);
  await app.dispose();
});
