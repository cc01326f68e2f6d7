/**
 * Charts that tell the truth (issue 48): a measure no one recorded is said in words, with no
 * empty axes (they read 1969–1970); a single measurement is drawn on a few weeks around its
 * day, not on years after it; and the growth table's columns all fit a phone's width.
 */
import type { Locator, Page } from '@playwright/test';
import { addMemberViaApi, createRecordViaApi, expect, expectAccessible, test } from './fixtures';

const DAY_MS = 86_400_000;

/** The time axis a trend chart drew (its `data-from` and `data-to`), once it has drawn. */
async function axisOf(chart: Locator) {
  await expect(chart).toHaveAttribute('data-to', /\d{4}-/);
  const from = Date.parse((await chart.getAttribute('data-from')) ?? '');
  const to = Date.parse((await chart.getAttribute('data-to')) ?? '');
  return { from, to };
}

/** The axis holds the moment, a few days to two months of days around it. */
async function expectAxisAround(chart: Locator, moment: string) {
  const { from, to } = await axisOf(chart);
  const at = Date.parse(moment);
  expect(from, 'the axis starts before the point').toBeLessThan(at);
  expect(to, 'the axis ends after the point').toBeGreaterThan(at);
  expect(to - from, 'the axis spans days, not years').toBeLessThanOrEqual(62 * DAY_MS);
  expect(to - from, 'the axis spans days, not years').toBeGreaterThanOrEqual(2 * DAY_MS);
  // Centred on it: the point sits in the middle third.
  expect(at - from).toBeGreaterThan((to - from) / 3);
  expect(to - at).toBeGreaterThan((to - from) / 3);
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(name), fullPage: true });
}

test('a measure with nothing recorded says so for that person, with no empty chart', async ({
  page,
  user,
}) => {
  const mia = await addMemberViaApi(page, { name: 'Mia' });
  await createRecordViaApi(page, 'vitals', {
    measured_at: '2026-03-04T08:15:00.000Z',
    weight_kg: 72.5,
  });

  await page.goto(`/vitals?member=${mia.id}`);
  await expect(page.getByText('No weight recorded for Mia yet')).toBeVisible();
  await expect(page.getByRole('img', { name: 'Weight chart' })).toHaveCount(0);
  await expectAccessible(page);
  await shot(page, 'vitals-empty.png');

  await page.goto('/vitals');
  await expect(page.getByRole('img', { name: 'Weight chart' })).toBeVisible();
  await page.getByLabel('Measure').selectOption('Height');
  await expect(page.getByText(`No height recorded for ${user.name} yet`)).toBeVisible();
  await expect(page.getByRole('img', { name: 'Height chart' })).toHaveCount(0);
  await expect(page.getByRole('table')).toHaveCount(0);
});

test('a single measurement is drawn on the weeks around its day', async ({ page, user }) => {
  void user;
  const moment = '2026-03-04T08:15:00.000Z';
  await createRecordViaApi(page, 'vitals', {
    measured_at: moment,
    weight_kg: 72.5,
    systolic_mmhg: 120,
    diastolic_mmhg: 80,
  });

  await page.goto('/vitals');
  const weight = page.getByRole('img', { name: 'Weight chart' });
  await expect(weight).toBeVisible();
  await expectAxisAround(weight, moment);
  await shot(page, 'vitals-one-point.png');

  await page.getByLabel('Measure').selectOption('Blood Pressure');
  const pressure = page.getByRole('img', { name: 'Blood Pressure chart' });
  await expect(pressure).toBeVisible();
  await expectAxisAround(pressure, moment);
});

test('two measurements a day apart keep their own days, and a lab result alone its weeks', async ({
  page,
  user,
}) => {
  void user;
  for (const [at, weight] of [
    ['2026-03-04T08:00:00.000Z', 72.5],
    ['2026-03-05T08:00:00.000Z', 72.1],
  ] as const) {
    await createRecordViaApi(page, 'vitals', { measured_at: at, weight_kg: weight });
  }
  await page.goto('/vitals');
  const { from, to } = await axisOf(page.getByRole('img', { name: 'Weight chart' }));
  expect(from).toBeLessThanOrEqual(Date.parse('2026-03-04T08:00:00.000Z'));
  expect(to).toBeGreaterThanOrEqual(Date.parse('2026-03-05T08:00:00.000Z'));
  expect(to - from).toBeLessThanOrEqual(7 * DAY_MS);

  const lab = await createRecordViaApi(page, 'labs', {
    test_name: 'Hemoglobin A1c',
    result: '5.4',
    unit: '%',
    range_high: '5.7',
    collected_date: '2026-03-04',
  });
  await page.goto(`/labs/${lab.id}`);
  const trend = page.getByRole('img', { name: 'Hemoglobin A1c trend' });
  await expect(trend).toBeVisible();
  await expectAxisAround(trend, '2026-03-04T12:00:00.000Z');
  await shot(page, 'lab-one-point.png');
});

test(
  'the growth table’s columns fit the screen, Percentile and all',
  { tag: '@layout' },
  async ({ page, user }) => {
    void user;
    const born = new Date(Date.now() - 1000 * DAY_MS).toISOString().slice(0, 10);
    const sofia = await addMemberViaApi(page, {
      name: 'Sofia',
      date_of_birth: born,
      sex: 'female',
    });
    const measured = new Date(Date.parse(`${born}T12:00:00.000Z`) + 928 * DAY_MS).toISOString();
    await createRecordViaApi(page, 'vitals', {
      measured_at: measured,
      weight_kg: 13.04,
      height_cm: 90.3,
      family_member_id: sofia.id,
    });

    await page.goto(`/growth?person=${sofia.id}&chart=length-height`);
    const table = page.getByRole('table');
    await expect(table.getByRole('cell', { name: 'Height 90.3 cm' })).toBeVisible();
    const viewport = page.viewportSize()!;
    for (const column of ['Date', 'Age', 'Value', 'Percentile']) {
      const header = table.getByRole('columnheader', { name: column });
      await expect(header).toBeInViewport({ ratio: 1 });
      const box = (await header.boundingBox())!;
      expect(box.x + box.width, column).toBeLessThanOrEqual(viewport.width);
    }
    // Nothing of the table is hidden beyond its frame.
    const hidden = await table.evaluate((element) => {
      const frame = element.parentElement!;
      return frame.scrollWidth - frame.clientWidth;
    });
    expect(hidden).toBe(0);
    await expect(table.getByRole('cell', { name: '50th' })).toBeInViewport({ ratio: 1 });
    await expectAccessible(page);
    await table.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath('growth-table.png') });
  },
);
