import { readFileSync } from 'node:fs';
import { createRecordViaApi, expect, expectAccessible, signUpViaApi, test } from './fixtures';

test('profile settings show the email read-only and update the full name everywhere', async ({
  page,
  user,
}) => {
  await page.goto('/profile-settings');
  await expect(page.getByLabel('Email')).toHaveValue(user.email);
  await expect(page.getByLabel('Email')).toHaveAttribute('readonly', '');
  await expect(page.getByLabel('Full Name')).toHaveValue(user.name);
  await expectAccessible(page);

  // An empty name is refused in words, under the field, and nothing is saved.
  await page.getByLabel('Full Name').fill('');
  await page.getByRole('button', { name: 'Update Profile' }).click();
  await expect(page.locator('#profile-full-name-error')).toHaveText('Full Name is required');
  await expect(page.getByLabel('Full Name')).toHaveAttribute('aria-invalid', 'true');

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

test('the share cards sit above the privacy notice, and none of them is a placeholder', async ({
  page,
  user,
}) => {
  void user;
  await page.goto('/share');
  await expect(page.getByText(/encrypted/)).toBeVisible();
  await expect(page.getByText(/revoke/)).toBeVisible();
  await expect(page.getByText(/expire after 7 days/)).toBeVisible();
  await expectAccessible(page);
  for (const card of [
    'Export as PDF',
    'Share via Email',
    'Share via Message',
    'Generate Share Link',
  ]) {
    await page.getByRole('button', { name: new RegExp(card) }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expect(page.getByText(/will be available soon/)).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toBeHidden();
  }
});

test('a user downloads their data and imports it into a new, empty account', async ({
  page,
  user,
  browser,
}) => {
  void user;
  const base = test.info().project.use.baseURL ?? '';
  const member = await page.request.post('/api/family-members', {
    data: { name: 'Leo' },
    headers: { origin: base },
  });
  const leo = (await member.json()) as { id: string };
  await page.request.post('/api/visits', {
    data: {
      visit_name: 'Exported visit',
      visit_date: '2026-03-04T10:00:00Z',
      family_member_id: leo.id,
    },
    headers: { origin: base },
  });
  await page.request.post('/api/notes', {
    data: { title: 'Exported note', note_date: '2026-03-01' },
    headers: { origin: base },
  });

  await page.goto('/profile-settings');
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download my data' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^kin-health-export-\d{4}-\d{2}-\d{2}\.json$/);
  const file = await download.path();

  // Signed out meanwhile (in another tab, say): the download says why it did not happen.
  await page.context().clearCookies();
  await page.getByRole('link', { name: 'Download my data' }).click();
  await expect(page.getByText('Not authenticated')).toBeVisible();

  const context = await browser.newContext({ baseURL: base });
  const other = await context.newPage();
  await signUpViaApi(other, 'Nora Newton');
  // Profile Settings' 'Import from a file' leads to /import, the file with it.
  await other.goto('/profile-settings');
  await other.getByLabel('Import from a file').setInputFiles(file);
  await expect(other).toHaveURL(/\/import$/);
  // Nothing is written before the preview is confirmed.
  await expect(other.getByText('Kin Health export', { exact: true })).toBeVisible();
  await expect(other.getByText('3 new, 0 already here, 0 changed')).toBeVisible();
  await expect(other.getByText('Visits: 1 new, 0 already here, 0 changed')).toBeVisible();
  await expectAccessible(other);
  await other.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(other.getByText('Imported 3 records')).toBeVisible();
  await other.goto('/');
  await expect(other.getByRole('link', { name: /Exported visit/ })).toBeVisible();
  await expect(other.getByRole('link', { name: /Exported note/ })).toBeVisible();
  await expect(other.getByRole('button', { name: 'Leo' })).toBeVisible();

  // The same file again: everything is already here, and confirming adds nothing.
  await other.goto('/import');
  await other.getByLabel('Import from a file').setInputFiles(file);
  await expect(other.getByText('0 new, 3 already here, 0 changed')).toBeVisible();
  await other.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(other.getByText('Imported 0 records')).toBeVisible();
  await other.goto('/');
  await expect(other.getByRole('link', { name: /Exported note/ })).toBeVisible();
  await expect(other.getByRole('link', { name: /Exported visit/ })).toHaveCount(1);
  await expect(other.getByRole('button', { name: 'Leo' })).toHaveCount(1);
  await context.close();
});

test('a user downloads a person’s records as FHIR R4 and brings them into another account’s person', async ({
  page,
  user,
  browser,
}) => {
  const base = test.info().project.use.baseURL ?? '';
  const member = await page.request.post('/api/family-members', {
    data: { name: 'Leo' },
    headers: { origin: base },
  });
  const leo = (await member.json()) as { id: string };
  await createRecordViaApi(page, 'allergies', {
    substance: 'Penicillin',
    severity: 'Severe',
    family_member_id: leo.id,
  });
  await createRecordViaApi(page, 'medications', {
    medication_name: 'Amoxicillin',
    start_date: '2026-01-10',
    family_member_id: leo.id,
  });
  await createRecordViaApi(page, 'notes', { title: 'Not Leo’s', note_date: '2026-03-01' });

  await page.goto('/profile-settings');
  const person = page.getByLabel('Person');
  await expect(person.locator('option')).toHaveText([`${user.name} (you)`, 'Leo']);
  await person.selectOption({ label: 'Leo' });
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download FHIR (R4)' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^kin-health-fhir-leo-\d{4}-\d{2}-\d{2}\.json$/);
  const file = await download.path();
  const bundle = JSON.parse(readFileSync(file, 'utf8')) as {
    resourceType: string;
    entry: { resource: { resourceType: string } }[];
  };
  expect(bundle.resourceType).toBe('Bundle');
  expect(bundle.entry.map((entry) => entry.resource.resourceType).sort()).toEqual([
    'AllergyIntolerance',
    'MedicationStatement',
    'Patient',
  ]);
  await expectAccessible(page);

  const context = await browser.newContext({ baseURL: base });
  const other = await context.newPage();
  await signUpViaApi(other, 'Nora Newton');
  // Leo's file names Leo: not Nora's records, whatever account it is brought into.
  await other.goto('/import');
  await other.getByLabel('Import from a file').setInputFiles(file);
  await expect(other.getByText('FHIR', { exact: true })).toBeVisible();
  await expect(other.getByLabel('Person').locator('option:checked')).toHaveText(
    'New family member: Leo',
  );
  await expect(other.getByText('2 new, 0 already here, 0 changed')).toBeVisible();
  await other.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(other.getByText('Imported 2 records')).toBeVisible();
  // Again: Leo is here now, and has it all.
  await other.getByLabel('Import from a file').setInputFiles(file);
  const again = other.getByRole('group').last();
  await expect(again.getByLabel('Person').locator('option:checked')).toHaveText('Leo');
  await expect(again.getByText('0 new, 2 already here, 0 changed')).toBeVisible();
  await again.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(again.getByText('Imported 0 records')).toBeVisible();
  await other.goto('/allergies');
  await expect(other.getByRole('link', { name: /Penicillin/ })).toHaveCount(1);
  await expect(other.getByRole('link', { name: /Penicillin/ })).toContainText('Leo');
  await context.close();
});

test('the FHIR file just downloaded, imported back, is all already here: no medication twice', async ({
  page,
  user,
}) => {
  void user;
  const base = test.info().project.use.baseURL ?? '';
  const member = await page.request.post('/api/family-members', {
    data: { name: 'Leo' },
    headers: { origin: base },
  });
  const leo = (await member.json()) as { id: string };
  await createRecordViaApi(page, 'medications', {
    medication_name: 'Salbutamol',
    frequency: 'Twice Daily',
    time_morning: true,
    time_evening: true,
    start_date: '2026-01-10',
    family_member_id: leo.id,
  });
  await createRecordViaApi(page, 'allergies', { substance: 'Peanuts', family_member_id: leo.id });

  await page.goto('/profile-settings');
  await page.getByLabel('Person').selectOption({ label: 'Leo' });
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download FHIR (R4)' }).click();
  const file = await (await downloading).path();

  await page.getByLabel('Import from a file').setInputFiles(file);
  // The file is Leo's, by this server's own id.
  await expect(page.getByLabel('Person').locator('option:checked')).toHaveText('Leo');
  await expect(page.getByText('0 new, 2 already here, 0 changed')).toBeVisible();
  await expect(page.getByRole('radio')).toHaveCount(0);
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByText('Imported 0 records')).toBeVisible();

  await page.goto('/');
  const today = page.getByRole('region', { name: "Today's Medications" });
  await expect(today.getByRole('button', { name: 'Mark Salbutamol Morning taken' })).toHaveCount(1);
  await expect(today.getByRole('button', { name: 'Mark Salbutamol Evening taken' })).toHaveCount(1);
  const counts = await page.request.get('/api/allergies');
  expect(((await counts.json()) as { items: unknown[] }).items).toHaveLength(1);
});
