/**
 * Vitals where a parent meets them: Units set to US in Profile Settings, an entry typed in
 * pounds and °F, its trend on /vitals (chart and table), another Measure, and a bad value
 * refused with a message naming the field.
 */
import { expect, expectAccessible, test } from './fixtures';

test('a vitals entry typed in US units is on /vitals in the chart’s table; a bad value names the field', async ({
  page,
  user,
}) => {
  void user;
  await page.goto('/profile-settings');
  await page.getByLabel('Units').selectOption({ label: 'US' });
  await expect(page.getByLabel('Units')).toHaveValue('us');

  await page.goto('/list');
  await page.getByRole('link', { name: /Vitals/ }).click();
  await expect(page).toHaveURL(/\/vitals$/);
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await page.getByRole('link', { name: 'New Vitals' }).click();
  await expect(page.getByRole('heading', { name: 'New Vitals' })).toBeVisible();

  await page.getByLabel('Measured At').fill('2026-03-04T08:15');
  // Nothing measured: refused.
  await page.getByRole('button', { name: 'Save Vitals' }).click();
  await expect(page.getByText('Enter at least one measurement')).toBeVisible();
  // A weight no one has: refused in the units it was typed in.
  await page.getByLabel('Weight (lb)').fill('2000');
  await page.getByRole('button', { name: 'Save Vitals' }).click();
  await expect(page.getByText('Weight must be between 0.4 and 1102.3 lb')).toBeVisible();

  await page.getByLabel('Weight (lb)').fill('154');
  await page.getByLabel('Temperature (°F)').fill('98.6');
  await page.getByLabel('Systolic').fill('118');
  await page.getByLabel('Diastolic').fill('76');
  await page.getByRole('button', { name: 'Save Vitals' }).click();
  await expect(page).toHaveURL(/\/vitals$/);

  await expect(page.getByRole('img', { name: 'Weight chart' })).toBeVisible();
  const table = page.getByRole('table');
  await expect(table.getByRole('columnheader', { name: 'Date' })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'Value' })).toBeVisible();
  await expect(table.getByRole('cell', { name: '154 lb' })).toBeVisible();
  await expectAccessible(page);

  await page.getByLabel('Measure').selectOption('Temperature');
  await expect(page.getByRole('img', { name: 'Temperature chart' })).toBeVisible();
  await expect(table.getByRole('cell', { name: '98.6 °F' })).toBeVisible();
  await page.getByLabel('Measure').selectOption('Blood Pressure');
  await expect(table.getByRole('cell', { name: '118/76 mmHg' })).toBeVisible();

  // The entry itself, in the same units; stored canonical, it reads back as typed.
  await table.getByRole('link').first().click();
  await expect(page.getByText('154 lb')).toBeVisible();
  await page.getByRole('button', { name: 'Edit Vitals' }).click();
  await expect(page.getByLabel('Weight (lb)')).toHaveValue('154');
});
