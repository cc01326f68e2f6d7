/**
 * Symptoms (CONTRACT §6) where a parent meets them: the Health Records card and Add New, the
 * form's exact labels and its messages naming Severity and Ended At, the list and the detail;
 * the timeline's quick entry in three taps; and a symptom's severity marked on the vitals
 * chart's time axis, for the person the chart is about.
 */
import { addMemberViaApi, createRecordViaApi, expect, expectAccessible, test } from './fixtures';

test('a symptom is added with the form, listed, and opened', async ({ page, user }) => {
  void user;
  await page.goto('/list');
  await page.getByRole('link', { name: /Symptoms/ }).click();
  await expect(page).toHaveURL(/\/symptoms$/);
  await expect(page.getByText('No symptoms recorded yet')).toBeVisible();
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await page.getByRole('link', { name: 'New Symptom' }).click();
  await expect(page).toHaveURL(/\/symptoms\/new$/);
  await expect(page.getByRole('heading', { name: 'New Symptom' })).toBeVisible();

  for (const label of ['Symptom', 'Severity', 'Started At', 'Ended At', 'Notes', 'Family Member']) {
    await expect(page.getByLabel(label, { exact: true })).toBeVisible();
  }
  // A new symptom starts now.
  await expect(page.getByLabel('Started At', { exact: true })).not.toHaveValue('');
  await expectAccessible(page);

  await page.getByLabel('Symptom', { exact: true }).fill('Headache');
  await page.getByLabel('Severity', { exact: true }).fill('12');
  await page.getByLabel('Started At', { exact: true }).fill('2026-03-04T08:00');
  await page.getByLabel('Ended At', { exact: true }).fill('2026-03-04T07:00');
  await page.getByRole('button', { name: 'Save Symptom' }).click();
  await expect(page.getByText('Severity must be between 1 and 10')).toBeVisible();
  await page.getByLabel('Severity', { exact: true }).fill('7');
  await page.getByRole('button', { name: 'Save Symptom' }).click();
  await expect(page.getByText('Ended At cannot be before Started At')).toBeVisible();

  await page.getByLabel('Ended At', { exact: true }).fill('2026-03-04T11:30');
  await page.getByLabel('Notes', { exact: true }).fill('Behind the eyes');
  await page.getByRole('button', { name: 'Save Symptom' }).click();
  await expect(page).toHaveURL(/\/symptoms$/);

  const card = page.getByRole('link', { name: /Headache/ });
  await expect(card).toContainText('Severity 7/10');
  await expectAccessible(page);
  await card.click();
  await expect(page).toHaveURL(/\/symptoms\/[0-9a-f-]+$/);
  await expect(page.getByRole('heading', { name: 'Headache' })).toBeVisible();
  await expect(page.getByText('Behind the eyes')).toBeVisible();
  await page.getByRole('button', { name: 'Edit Symptom' }).click();
  await expect(page).toHaveURL(/\/symptoms\/[0-9a-f-]+\/edit$/);
  await expect(page.getByLabel('Severity', { exact: true })).toHaveValue('7');
});

test('the timeline asks how a person is feeling, and saves a symptom in three taps', async ({
  page,
  user,
}) => {
  void user;
  const kid = await addMemberViaApi(page, { name: 'Sam Lee', date_of_birth: '2018-05-01' });
  await createRecordViaApi(page, 'symptoms', {
    symptom: 'Cough',
    severity: 3,
    started_at: '2026-01-10T08:00:00.000Z',
    family_member_id: kid.id,
  });
  await page.goto('/');
  // Everyone in view: the account holder is asked about.
  await expect(page.getByRole('link', { name: 'How is Ann feeling?' })).toBeVisible();

  await page.goto(`/?person=${kid.id}`);
  const before = Date.now();
  await page.getByRole('link', { name: 'How is Sam feeling?' }).click(); // 1
  const dialog = page.getByRole('dialog', { name: 'How is Sam feeling?' });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Cough' }).click(); // 2
  await dialog.getByRole('button', { name: 'Severity 6' }).click(); // 3
  await expect(page.getByText('Symptom added')).toBeVisible();
  await expect(dialog).toBeHidden();

  // On the timeline, today, for Sam, started now.
  const event = page.getByRole('link', { name: /Cough/ }).first();
  await expect(event).toContainText('Sam Lee');
  const listed = await page.request.get(`/api/symptoms?member=${kid.id}`);
  const { items } = (await listed.json()) as {
    items: { symptom: string; severity: number; started_at: string }[];
  };
  expect(items).toHaveLength(2);
  expect(items[0]).toMatchObject({ symptom: 'Cough', severity: 6 });
  expect(Date.parse(items[0]!.started_at)).toBeGreaterThanOrEqual(before - 60_000);
  expect(Date.parse(items[0]!.started_at)).toBeLessThanOrEqual(Date.now());

  // A symptom typed rather than picked, for the account holder.
  await page.goto('/');
  await page.getByRole('link', { name: 'How is Ann feeling?' }).click();
  const mine = page.getByRole('dialog', { name: 'How is Ann feeling?' });
  await mine.getByRole('button', { name: 'Next' }).click();
  await expect(mine.getByText('Symptom is required')).toBeVisible();
  await mine.getByLabel('Symptom').fill('Sore throat');
  await mine.getByRole('button', { name: 'Next' }).click();
  await mine.getByRole('button', { name: 'Severity 2' }).click();
  await expect(page.getByRole('link', { name: /Sore throat/ })).toBeVisible();
});

test('a symptom’s severity is marked on the vitals chart’s time axis, named', async ({
  page,
  user,
}) => {
  void user;
  for (const [day, systolic] of [
    ['2026-02-01', 118],
    ['2026-02-10', 162],
    ['2026-02-20', 121],
  ] as const) {
    await createRecordViaApi(page, 'vitals', {
      measured_at: `${day}T08:00:00.000Z`,
      systolic_mmhg: systolic,
      diastolic_mmhg: 80,
    });
  }
  await page.goto('/vitals?measure=Blood+Pressure');
  await expect(page.getByRole('img', { name: 'Blood Pressure chart' })).toBeVisible();
  // No symptom yet: no marks.
  await expect(page.getByRole('list', { name: 'Symptom severity' })).toHaveCount(0);

  await createRecordViaApi(page, 'symptoms', {
    symptom: 'Dizziness',
    severity: 8,
    started_at: '2026-02-10T09:30:00.000Z',
  });
  // Outside the chart's time: not marked.
  await createRecordViaApi(page, 'symptoms', {
    symptom: 'Rash',
    severity: 2,
    started_at: '2025-06-01T09:30:00.000Z',
  });
  await page.reload();
  const marks = page.getByRole('list', { name: 'Symptom severity' });
  await expect(marks).toBeVisible();
  const mark = marks.getByRole('img', { name: /^Dizziness, severity 8 of 10, / });
  await expect(mark).toBeVisible();
  await expect(marks.getByRole('img')).toHaveCount(1);

  // It stands where the time axis puts Feb 10, between the chart's first and last day.
  const chart = page.getByRole('img', { name: 'Blood Pressure chart' });
  const box = (await chart.boundingBox())!;
  const at = (await mark.boundingBox())!;
  const from = Date.parse((await chart.getAttribute('data-from'))!);
  const to = Date.parse((await chart.getAttribute('data-to'))!);
  const share = (Date.parse('2026-02-10T09:30:00.000Z') - from) / (to - from);
  const plotted = (at.x + at.width / 2 - box.x) / box.width;
  expect(share).toBeGreaterThan(0.3);
  expect(Math.abs(plotted - share)).toBeLessThan(0.15);
  await expectAccessible(page);
});
