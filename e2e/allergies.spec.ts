/**
 * Allergies, the eighth record type, where a person meets them: the Health Records menu,
 * the Add New dialog, the empty list, a missing one, and an allergy on the timeline.
 */
import { createRecordViaApi, expect, expectAccessible, test } from './fixtures';

test(
  'allergies are on the menu, in Add New, and say when there are none',
  { tag: '@layout' },
  async ({ page, user }) => {
    void user;
    await page.goto('/list');
    await page.getByRole('link', { name: /Allergies/ }).click();
    await expect(page).toHaveURL(/\/allergies$/);
    await expect(page.getByText('No allergies recorded yet')).toBeVisible();
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByRole('link', { name: 'New Allergy' }).click();
    await expect(page).toHaveURL(/\/allergies\/new$/);
    await expect(page.getByRole('heading', { name: 'New Allergy' })).toBeVisible();
    await expectAccessible(page);
  },
);

test('an allergy that does not exist says so', async ({ page, user }) => {
  void user;
  await page.goto('/allergies/0190d5e2-0000-7000-8000-000000000000');
  await expect(page.getByText('Allergy not found')).toBeVisible();
});

test('an allergy is on the timeline on the day it was noted, and a severe one stands out', async ({
  page,
  user,
}) => {
  void user;
  const allergy = await createRecordViaApi(page, 'allergies', {
    substance: 'Penicillin',
    reaction: 'Rash',
    severity: 'Severe',
    category: 'Medication',
    noted_date: '2024-05-02',
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'May 2, 2024' })).toBeVisible();
  await page.getByRole('link', { name: /Penicillin/ }).click();
  await expect(page).toHaveURL(new RegExp(`/allergies/${allergy.id}$`));
  // Marked by an icon and a word in bold, not by colour alone, on the detail and the list.
  const severe = page.locator('strong', { hasText: 'Severe' });
  await expect(severe).toBeVisible();
  await expect(severe.locator('svg')).toBeVisible();
  await page.goto('/allergies');
  await expect(page.getByRole('link', { name: /Penicillin/ })).toContainText('Rash');
  await expect(
    page
      .getByRole('link', { name: /Penicillin/ })
      .locator('strong', { hasText: 'Severe' })
      .locator('svg'),
  ).toBeVisible();
  await expectAccessible(page);
});
