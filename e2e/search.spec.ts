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

test('vitals are found by their notes, their measures’ names and their values, in the user’s units', async ({
  page,
  user,
}) => {
  void user;
  const vitals = await createRecordViaApi(page, 'vitals', {
    measured_at: '2026-03-04T08:15:00.000Z',
    weight_kg: 72.5,
    systolic_mmhg: 120,
    diastolic_mmhg: 80,
    notes: 'After the long walk',
  });
  const result = page.getByRole('link', { name: /Weight 72\.5 kg · BP 120\/80 mmHg/ });
  for (const q of ['walk', 'weight', 'blood pressure', '120/80', '72.5 kg']) {
    await page.goto(`/search?q=${encodeURIComponent(q)}`);
    await expect(page.getByRole('heading', { name: 'Vitals' }), q).toBeVisible();
    await expect(result, q).toHaveAttribute('href', `/vitals/${vitals.id}`);
  }
  await expectAccessible(page);
  await page.screenshot({ path: test.info().outputPath('search-vitals.png') });

  // In US units the result reads in pounds, and is found by them.
  await page.goto('/profile-settings');
  await page.getByLabel('Units').selectOption({ label: 'US' });
  await expect(page.getByLabel('Units')).toHaveValue('us');
  const inPounds = page.getByRole('link', { name: /Weight 159\.8 lb · BP 120\/80 mmHg/ });
  await page.goto('/search?q=159.8%20lb');
  await expect(inPounds).toHaveAttribute('href', `/vitals/${vitals.id}`);
  await inPounds.click();
  await expect(page).toHaveURL(new RegExp(`/vitals/${vitals.id}$`));
});
