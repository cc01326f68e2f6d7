/**
 * Lab results where a parent meets them (issue 35, "Done when"): a lipid panel entered in
 * one go, 'High' on the LDL in the list, and the LDL's trend (its chart and its table).
 */
import { createRecordViaApi, expect, expectAccessible, test } from './fixtures';

test('a lipid panel in one go, High on the LDL, and the LDL trend', async ({ page, user }) => {
  void user;
  // An earlier LDL, so that the trend has two points.
  await createRecordViaApi(page, 'labs', {
    test_name: 'LDL Cholesterol',
    loinc_code: '18262-6',
    result: '140',
    unit: 'mg/dL',
    range_high: '100',
    collected_date: '2025-02-01',
  });

  await page.goto('/list');
  await page.getByRole('link', { name: /Lab Results/ }).click();
  await expect(page).toHaveURL(/\/labs$/);
  await page.getByRole('button', { name: 'Add Panel' }).click();
  await expect(page.getByRole('heading', { name: 'New Lab Panel' })).toBeVisible();

  await page.getByLabel('Collected Date').fill('2026-03-04');
  await page.getByLabel('Lab', { exact: true }).fill('Quest Diagnostics');
  await page.getByLabel('Panel', { exact: true }).selectOption('Lipid panel');
  const row = (n: number) => page.getByRole('group', { name: `Row ${n}` });
  // The panel's tests come with their units; the results and ranges are the report's.
  await expect(row(2).getByLabel('Test Name')).toHaveValue('LDL Cholesterol');
  await expect(row(2).getByLabel('Unit')).toHaveValue('mg/dL');
  const results: [number, string, string][] = [
    [1, '190', '200'],
    [2, '162', '100'],
    [3, '55', ''],
    [4, '140', '150'],
  ];
  for (const [n, result, high] of results) {
    await row(n).getByLabel('Result').fill(result);
    if (high) await row(n).getByLabel('Range High').fill(high);
  }
  await row(3).getByLabel('Range Low').fill('40');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Save Panel' }).click();

  await expect(page).toHaveURL(/\/labs$/);
  const ldl = page.getByRole('link', { name: /LDL Cholesterol.*162 mg\/dL/ });
  await expect(ldl).toBeVisible();
  await expect(ldl.getByText('High', { exact: true })).toBeVisible();
  await expect(
    page.getByRole('link', { name: /HDL Cholesterol/ }).getByText('Normal', { exact: true }),
  ).toBeVisible();

  await ldl.click();
  await expect(page.getByRole('heading', { name: 'Trend' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'LDL Cholesterol trend' })).toBeVisible();
  const rows = page.getByRole('table').getByRole('row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText('162 mg/dL');
  await expect(rows.nth(2)).toContainText('140 mg/dL');
  await expectAccessible(page);
});
