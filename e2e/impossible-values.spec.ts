/**
 * Forms refuse what cannot be true, with the message under the field it names: a date of
 * birth in the future, a shot before the person was born, times of day that do not match
 * the frequency (unless 'No set time' is said).
 */
import { addMemberViaApi, expect, expectAccessible, localDay, test } from './fixtures';

test('forms refuse a future birth, a shot before birth, and times that do not match', async ({
  page,
  user,
}) => {
  void user;
  await page.goto('/profiles');
  await page.getByRole('button', { name: 'Add Family Member' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Family Member' });
  await dialog.getByLabel('Name').fill('Bobby');
  await dialog.getByLabel('Date of Birth').fill(localDay(1));
  await dialog.getByRole('button', { name: 'Add Member' }).click();
  await expect(dialog.getByText('Date of Birth cannot be in the future')).toBeVisible();
  await expect(dialog.getByLabel('Date of Birth')).toHaveAttribute('aria-invalid', 'true');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await addMemberViaApi(page, { name: 'Leo', date_of_birth: '2020-05-10' });
  await page.goto('/shots/new');
  await page.getByLabel('Shot Name').fill('MMR');
  await page.getByLabel('Date Administered').fill('2020-05-01');
  await page.getByLabel('Family Member').selectOption({ label: 'Leo' });
  await page.getByRole('button', { name: 'Save Shot' }).click();
  await expect(
    page.getByText("Date Administered cannot be before Leo's Date of Birth (2020-05-10)"),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/shots\/new$/);

  await page.goto('/medications/new');
  await page.getByLabel('Medication Name').fill('Inhaler');
  await page.getByLabel('Frequency').selectOption('Twice Daily');
  await page.getByLabel('Morning').check();
  await page.getByRole('button', { name: 'Save Medication' }).click();
  await expect(
    page.getByText("Frequency 'Twice Daily' needs two times of day, or tick 'No set time'"),
  ).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel('Frequency').selectOption('Daily');
  await page.getByLabel('Morning').uncheck();
  await page.getByLabel('No set time').check();
  await page.getByRole('button', { name: 'Save Medication' }).click();
  await expect(page.getByText('Medication created')).toBeVisible();
});
