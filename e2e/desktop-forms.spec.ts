/**
 * Forms and charts at a desk (CONTRACT §6 'Desktop', issue 52): from 1024 px the fields that
 * belong together stand side by side (a medication's Start Date and End Date, a lab result's
 * Range Low and Range High), a lab panel's rows are a table with a Flag column, and the
 * vitals and growth charts take the wider column and follow the window's width. Under 1024 px
 * the fields are one above the other, as on a phone.
 */
import type { Page } from '@playwright/test';
import { addMemberViaApi, createRecordViaApi, expect, expectAccessible, test } from './fixtures';
import { boxOf as box, expectBelow, expectOnOneRow } from './layout';

const shot = (page: Page, name: string) =>
  page.screenshot({ path: test.info().outputPath(name), fullPage: true });

test.describe('forms and charts at a desk', { tag: '@layout' }, () => {
  test.beforeEach(() => {
    test.skip(test.info().project.name !== 'desktop', 'the two columns are for wide screens');
  });

  test('a medication’s dates and dose stand side by side, and one above the other under 1024 px', async ({
    page,
    user,
  }) => {
    void user;
    await page.goto('/medications/new');
    const start = page.getByLabel('Start Date');
    const end = page.getByLabel('End Date');
    await expectOnOneRow(start, end);
    await expectOnOneRow(page.getByLabel('Dosage'), page.getByLabel('Frequency'));
    // The order of the fields is the order they are typed in: Dosage, then Frequency.
    await page.getByLabel('Dosage').focus();
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Frequency')).toBeFocused();
    await expectAccessible(page);
    await shot(page, 'medication-form-1280.png');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await expectOnOneRow(start, end);
    await shot(page, 'medication-form-1920.png');
    await page.setViewportSize({ width: 1000, height: 800 });
    await expectBelow(start, end);
  });

  test('a lab result’s range low and high stand side by side', async ({ page, user }) => {
    void user;
    await page.goto('/labs/new');
    await expect(page.getByRole('heading', { name: 'New Lab Result' })).toBeVisible();
    await expectOnOneRow(page.getByLabel('Range Low'), page.getByLabel('Range High'));
    await expectOnOneRow(
      page.getByRole('textbox', { name: 'Result' }),
      page.getByRole('textbox', { name: 'Unit' }),
    );
    await expectAccessible(page);
    await shot(page, 'lab-result-form-1280.png');
  });

  test('a lab panel is a table: a row per test, a column per field, and its flag', async ({
    page,
    user,
  }) => {
    void user;
    await page.goto('/labs/new?panel');
    await expect(page.getByRole('heading', { name: 'New Lab Panel' })).toBeVisible();
    await expectOnOneRow(
      page.getByLabel('Lab', { exact: true }),
      page.getByLabel('Ordered By', { exact: true }),
    );
    await page.getByLabel('Panel', { exact: true }).selectOption('Lipid panel');
    const row = (n: number) => page.getByRole('group', { name: `Row ${n}` });
    await row(2).getByLabel('Result').fill('162');
    await row(2).getByLabel('Range High').fill('100');
    // One row of inputs, in the order of the columns, each input still named by its label.
    const columns = ['Test Name', 'Result', 'Unit', 'Range Low', 'Range High'];
    for (const n of [1, 2]) {
      const boxes = await Promise.all(columns.map((name) => box(row(n).getByLabel(name))));
      for (const [index, next] of boxes.slice(1).entries()) {
        expect(Math.abs(next.y - boxes[0]!.y)).toBeLessThan(2);
        expect(next.x).toBeGreaterThan(boxes[index]!.x + boxes[index]!.width - 1);
      }
    }
    // The rows one under the other, the columns under one header.
    const first = await box(row(1).getByLabel('Result'));
    const second = await box(row(2).getByLabel('Result'));
    expect(second.y).toBeGreaterThan(first.y);
    expect(Math.abs(second.x - first.x)).toBeLessThan(2);
    await expect(page.getByText('Flag', { exact: true })).toBeVisible();
    await expect(row(2).getByText('High', { exact: true })).toBeVisible();
    await expect(row(2).getByRole('button', { name: 'Remove row 2' })).toBeVisible();
    await expectAccessible(page);
    await shot(page, 'lab-panel-1280.png');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await shot(page, 'lab-panel-1920.png');
  });

  test('the vitals chart takes the width and follows the window', async ({ page, user }) => {
    void user;
    for (const [day, weight_kg] of [
      ['2026-01-04', 72.5],
      ['2026-02-04', 73.1],
      ['2026-03-04', 72.8],
    ] as const) {
      await createRecordViaApi(page, 'vitals', { measured_at: `${day}T08:15:00.000Z`, weight_kg });
    }
    await page.goto('/vitals');
    const chart = page.getByRole('img', { name: 'Weight chart' });
    await expect(chart.locator('canvas')).toBeVisible();
    const atDesk = await box(chart);
    expect(atDesk.width).toBeGreaterThan(700);
    // Its canvas fills it.
    await expect
      .poll(async () => (await box(chart.locator('canvas'))).width)
      .toBeGreaterThan(atDesk.width - 2);
    await expectAccessible(page);
    await shot(page, 'vitals-1280.png');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await expect.poll(async () => (await box(chart)).width).toBeGreaterThan(atDesk.width + 100);
    await expect
      .poll(async () => (await box(chart.locator('canvas'))).width)
      .toBeGreaterThan(atDesk.width + 100);
    await shot(page, 'vitals-1920.png');
    await page.setViewportSize({ width: 1100, height: 800 });
    await expect
      .poll(async () => (await box(chart.locator('canvas'))).width)
      .toBeLessThan(atDesk.width);
  });

  test('the growth chart takes the width', async ({ page, user }) => {
    void user;
    const today = new Date().toISOString().slice(0, 10);
    const born = `${Number(today.slice(0, 4)) - 1}${today.slice(4)}`;
    const noa = await addMemberViaApi(page, { name: 'Noa', date_of_birth: born, sex: 'female' });
    await createRecordViaApi(page, 'vitals', {
      measured_at: `${today}T08:00:00.000Z`,
      weight_kg: 9.2,
      family_member_id: noa.id,
    });
    await page.goto(`/growth?person=${noa.id}`);
    const chart = page.getByRole('img', { name: 'Growth chart' });
    await expect(chart.locator('canvas')).toBeVisible();
    expect((await box(chart)).width).toBeGreaterThan(700);
    await expectAccessible(page);
    await shot(page, 'growth-1280.png');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await expect.poll(async () => (await box(chart.locator('canvas'))).width).toBeGreaterThan(900);
    await shot(page, 'growth-1920.png');
  });
});
