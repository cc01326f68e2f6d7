import { addMemberViaApi, createRecordViaApi, expect, expectAccessible, test } from './fixtures';

test('the header search finds a record as one types, and /search lists it under its type, with its person', async ({
  page,
  user,
}) => {
  const mia = await addMemberViaApi(page, { name: 'Mia', color: '#ec4899' });
  const medication = await createRecordViaApi(page, 'medications', {
    medication_name: 'Amoxicillin',
    prescribed_doctor: 'Dr José Núñez',
    start_date: '2026-03-02',
    family_member_id: mia.id,
  });

  // The user's own record (of no member) names the user.
  await createRecordViaApi(page, 'allergies', {
    substance: 'Amoxil',
    reaction: 'Rash',
    status: 'Active',
    noted_date: '2025-06-10',
  });

  await page.goto('/');
  const box = page.getByRole('searchbox', { name: 'Search' });
  await box.fill('amox');
  const list = page.getByRole('listbox');
  const first = list.getByRole('option', { name: /Amoxicillin/ });
  await expect(first).toBeVisible();
  await expect(first.locator('mark')).toHaveText('Amoxicillin');
  await expect(first).toContainText('Mia');
  await expect(list.getByRole('option', { name: /Amoxil/ })).toContainText(`${user.name} (you)`);
  await page.screenshot({ path: test.info().outputPath('search-as-you-type.png') });

  await box.press('Enter');
  await expect(page).toHaveURL(/\/search\?q=amox$/);
  await expect(page.getByRole('heading', { name: 'Medications' })).toBeVisible();
  const result = page.getByRole('link', { name: /Amoxicillin/ });
  await expect(result.locator('mark').first()).toHaveText('Amoxicillin');
  await expect(result).toContainText('Mia');
  await expect(page.getByRole('heading', { name: 'Allergies' })).toBeVisible();
  await expect(page.getByRole('link', { name: /Amoxil\b/ })).toContainText(`${user.name} (you)`);
  await page.screenshot({ path: test.info().outputPath('search-page.png') });
  await expectAccessible(page);

  // Accents and case do not matter; the words of the other fields are found too.
  await box.fill('jose nunez');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/search\?q=jose%20nunez$/);
  await expect(result.locator('mark')).toHaveText(['José', 'Núñez']);

  await result.click();
  await expect(page).toHaveURL(new RegExp(`/medications/${medication.id}$`));
  await expect(page.getByRole('heading', { name: 'Amoxicillin' })).toBeVisible();

  await page.goto('/search?q=zzyzx');
  await expect(page.getByText('No results for "zzyzx"')).toBeVisible();
});
