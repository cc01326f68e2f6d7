/**
 * Bringing a family's history in (CONTRACT §6, issue 50): a patient portal's C-CDA for a
 * new family member made from the file's patient, once, and undone; an Apple Health export
 * into the person it matches, charted, and once; a CSV with a row that does not read; a
 * file of no kind Kin reads.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { writeAppleHealthZip } from '../src/server/imports/testing/apple-health-export';
import { addMemberViaApi, expect, expectAccessible, test } from './fixtures';

const CCD = 'src/server/imports/testdata/ccda/hl7/ccd.xml';

const fileCard = (page: Page, name: string) => page.getByRole('group', { name }).last();

test('a portal’s C-CDA comes in for a new family member, once, and is undone', async ({
  page,
  user,
}) => {
  void user;
  await page.goto('/list');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await page.getByRole('link', { name: 'Import Records' }).click();
  await expect(page).toHaveURL(/\/import$/);

  await page.getByLabel('Import from a file').setInputFiles(CCD);
  const card = fileCard(page, 'ccd.xml');
  await expect(card.getByText('C-CDA', { exact: true })).toBeVisible();
  await expect(
    card.getByText('In the file: Eve Betterhalf, born 1975-05-01, female'),
  ).toBeVisible();
  await expect(card.getByLabel('Person').locator('option:checked')).toHaveText(
    'New family member: Eve Betterhalf',
  );
  await expect(card.getByText('Allergies: 2 new, 0 already here, 0 changed')).toBeVisible();
  await expect(card.getByText('Lab Results: 5 new, 0 already here, 0 changed')).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({
    path: test.info().outputPath('import-ccda-preview.png'),
    fullPage: true,
  });
  await card.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(card.getByText(/^Imported \d+ records$/)).toBeVisible();

  // Eve is a family member now, with her allergies, medications, problems, shots and labs.
  await page.goto('/allergies');
  const penicillin = page.getByRole('link', { name: /Penicillin/ });
  await expect(penicillin).toContainText('Eve Betterhalf');
  await expect(page.getByRole('link', { name: /codeine/ })).toBeVisible();
  await penicillin.click();
  await expect(page.getByText(/^Imported from ccd\.xml on /)).toBeVisible();
  await page.goto('/medications');
  await expect(page.getByRole('link', { name: /atenolol 25 MG Oral Tablet/ })).toBeVisible();
  await page.goto('/history');
  await expect(page.getByRole('link', { name: /Chest pain/ })).toBeVisible();
  await page.goto('/shots');
  await page.getByRole('tab', { name: /Past/ }).click();
  await expect(page.getByRole('link', { name: /hepatitis B vaccine/ })).toBeVisible();
  // Coded with CVX, they count in Eve's vaccine schedule.
  await page.getByRole('tab', { name: 'Schedule' }).click();
  await page.getByLabel('Person').selectOption({ label: 'Eve Betterhalf' });
  const schedule = page.getByRole('list', { name: 'Vaccine schedule' });
  await expect(
    schedule
      .getByRole('listitem')
      .filter({ hasText: /^Pneumococcal/ })
      .first(),
  ).toContainText('Done');
  await page.screenshot({
    path: test.info().outputPath('import-ccda-schedule.png'),
    fullPage: true,
  });
  await page.goto('/labs');
  const platelets = page.getByRole('link', { name: /Platelets/ });
  await expect(platelets.getByText('Low', { exact: true })).toBeVisible();

  // The same file again: Eve is proposed, and it is all here already.
  await page.goto('/import');
  await page.getByLabel('Import from a file').setInputFiles(CCD);
  const again = fileCard(page, 'ccd.xml');
  await expect(again.getByLabel('Person').locator('option:checked')).toHaveText('Eve Betterhalf');
  await expect(again.getByText(/^0 new, \d+ already here, 0 changed$/)).toBeVisible();
  await again.getByRole('button', { name: 'Cancel' }).click();

  // Undone: what it added goes.
  const history = page.getByRole('region', { name: 'Import History' });
  await expect(history.getByText('ccd.xml')).toBeVisible();
  await history.getByRole('button', { name: 'Undo import' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Undo this import?' });
  await confirm.getByRole('button', { name: 'Undo import' }).click();
  await expect(page.getByText('Import undone')).toBeVisible();
  await expect(history.getByText(/^Undone on /)).toBeVisible();
  await page.goto('/allergies');
  await expect(page.getByRole('link', { name: /Penicillin/ })).toHaveCount(0);
  await page.goto('/labs');
  await expect(page.getByRole('link', { name: /Platelets/ })).toHaveCount(0);
});

test('an Apple Health export goes to the person it matches, charts, and comes in once', async ({
  page,
  user,
}) => {
  void user;
  // A year of readings (some three thousand), read three times (two previews and the import)
  // on a shared CI core; the bench reads exports of many years.
  test.setTimeout(300_000);
  const folder = mkdtempSync(join(tmpdir(), 'kin-apple-'));
  const zip = join(folder, 'export.zip');
  const written = await writeAppleHealthZip(zip, join(folder, 'export.xml'), {
    from: '2024-01-01',
    years: 1,
    birthDate: '1980-03-14',
    sex: 'HKBiologicalSexFemale',
    weightEveryDays: 14,
    bloodPressurePerDay: 1,
    heartRatePerDay: 6,
    stepsPerDay: 1,
  });
  expect(written.weights).toBeGreaterThan(24);
  const maria = await addMemberViaApi(page, {
    name: 'Maria Lopez',
    date_of_birth: '1980-03-14',
    sex: 'female',
  });

  await page.goto('/import');
  await page.getByLabel('Import from a file').setInputFiles(zip);
  const card = fileCard(page, 'export.zip');
  await expect(card.getByText('Apple Health', { exact: true })).toBeVisible({ timeout: 60_000 });
  // The export names no one, but its birth date and sex are Maria's alone.
  await expect(card.getByLabel('Person').locator('option:checked')).toHaveText('Maria Lopez');
  await expect(card.getByText(/^Vitals: \d+ new, 0 already here, 0 changed$/)).toBeVisible();
  await expect(card.getByText('Allergies: 1 new, 0 already here, 0 changed')).toBeVisible();
  await page.screenshot({
    path: test.info().outputPath('import-apple-preview.png'),
    fullPage: true,
  });
  await card.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(card.getByText(/^Imported \d+ records$/)).toBeVisible({ timeout: 60_000 });

  await page.goto(`/vitals?member=${maria.id}`);
  await expect(page.getByRole('img', { name: 'Weight chart' })).toBeVisible();
  await page.getByLabel('Measure').selectOption('Blood Pressure');
  await expect(page.getByRole('img', { name: 'Blood Pressure chart' })).toBeVisible();
  await page.getByLabel('Measure').selectOption('Heart Rate');
  await expect(page.getByRole('img', { name: 'Heart Rate chart' })).toBeVisible();
  await page.screenshot({
    path: test.info().outputPath('import-apple-vitals.png'),
    fullPage: true,
  });

  await page.goto('/import');
  await page.getByLabel('Import from a file').setInputFiles(zip);
  const again = fileCard(page, 'export.zip');
  await expect(again.getByText(/^0 new, \d+ already here, 0 changed$/)).toBeVisible({
    timeout: 60_000,
  });
});

test('a CSV’s unreadable row is named by its line, and the rest imports once confirmed', async ({
  page,
  user,
}) => {
  await page.goto('/import');
  await page.getByLabel('Import from a file').setInputFiles({
    name: 'weights.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(
      'Date,Weight (lb),Systolic,Diastolic\n2025-01-05,154,118,76\n2025-01-12,abc,,\n2025-01-19,153.2,,\n',
    ),
  });
  const card = fileCard(page, 'weights.csv');
  await expect(card.getByText('CSV', { exact: true })).toBeVisible();
  await card.getByLabel('Person').selectOption({ label: `${user.name} (you)` });
  await expect(card.getByText('1 row could not be read')).toBeVisible();
  await expect(card.getByText(/^Line 3: /)).toBeVisible();
  await expect(card.getByText('Vitals: 2 new, 0 already here, 0 changed')).toBeVisible();
  const importButton = card.getByRole('button', { name: 'Import', exact: true });
  await expect(importButton).toBeDisabled();
  await card.getByLabel('Import the rows that could be read').check();
  await importButton.click();
  await expect(card.getByText('Imported 2 records')).toBeVisible();
  await page.goto('/vitals');
  await expect(page.getByRole('table').getByRole('cell', { name: '69.9 kg' })).toBeVisible();
});

test('a file of no kind Kin reads is refused, and the others still come in', async ({
  page,
  user,
}) => {
  void user;
  await page.goto('/import');
  await expect(page.getByRole('button', { name: 'Download a CSV template' })).toBeVisible();
  await page.getByLabel('Import from a file').setInputFiles([
    { name: 'holiday.png', mimeType: 'image/png', buffer: Buffer.from('not a picture at all') },
    {
      name: 'allergy.xml',
      mimeType: 'text/xml',
      buffer: Buffer.from('<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>'),
    },
  ]);
  await expect(
    fileCard(page, 'holiday.png').getByText('This file is not a kind Kin Health can import'),
  ).toBeVisible();
  await expect(fileCard(page, 'allergy.xml').getByRole('alert')).toContainText('entities');
  await expect(page.getByRole('region', { name: 'Import History' })).toContainText(
    'No imports yet.',
  );
});
