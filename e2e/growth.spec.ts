import {
  addMemberViaApi,
  createRecordViaApi,
  expect,
  expectAccessible,
  localDay,
  secondAccount,
  shareViaApi,
  test,
} from './fixtures';

/** A calendar date (UTC) some days after another. */
function daysAfter(date: string, days: number): string {
  const day = new Date(`${date}T00:00:00.000Z`);
  day.setUTCDate(day.getUTCDate() + days);
  return day.toISOString().slice(0, 10);
}

// Published values at these ages in days (see src/shared/growth/charts.test.ts): WHO girls'
// weight 50th at 3 months, 95th at 9, 5th at 18; CDC girls' 50th at 30.5 months. The ages
// shown are calendar months, for a girl born on 15 January 2022 (CONTRACT §6 'Ages').
const BORN = '2022-01-15';
const measurements = [
  { days: 91, weight_kg: 5.8458, percentile: '50th', age: '3 mo' },
  { days: 274, weight_kg: 10.08429, percentile: '95th', age: '9 mo' },
  { days: 548, weight_kg: 8.399952, percentile: '5th', age: '18 mo' },
  { days: 928, weight_kg: 13.04357164, height_cm: 90.3, percentile: '50th', age: '2 y 6 mo' },
];

test('a child’s measurements at four ages, each with its percentile, on the curves', async ({
  page,
  user,
}) => {
  void user;
  const post = (url: string, data: Record<string, unknown>) =>
    page.request.post(url, { data, headers: { origin: test.info().project.use.baseURL ?? '' } });
  const member = await post('/api/family-members', {
    name: 'Sofia',
    date_of_birth: BORN,
    sex: 'female',
  });
  expect(member.status()).toBe(201);
  const sofia = ((await member.json()) as { id: string }).id;

  for (const { days, percentile: _percentile, age: _age, ...values } of measurements) {
    const saved = await post('/api/vitals', {
      ...values,
      measured_at: `${daysAfter(BORN, days)}T12:00:00.000Z`,
      family_member_id: sofia,
    });
    // INTEGRATION: the vitals record type comes from another branch; until it is merged
    // there is nothing to chart.
    test.skip(saved.status() === 404, 'needs the vitals record type');
    expect(saved.status(), await saved.text()).toBe(201);
  }

  await page.goto('/profiles');
  await page.getByRole('link', { name: 'Growth chart' }).click();
  await expect(page).toHaveURL(/\/growth\?person=/);
  await expect(page.getByLabel('Person', { exact: true })).toHaveValue(sofia);
  await expect(page.getByLabel('Chart', { exact: true })).toHaveValue('weight');
  await expect(page.getByRole('img', { name: 'Growth chart' })).toBeVisible();
  await expect(page.getByText('WHO Child Growth Standards; CDC 2000 growth charts')).toBeVisible();
  await page
    .getByRole('img', { name: 'Growth chart' })
    .screenshot({ path: test.info().outputPath('growth-chart.png') });

  const rows = page.getByRole('row');
  await expect(rows).toHaveCount(measurements.length + 1);
  for (const [index, measurement] of [...measurements].reverse().entries()) {
    const cells = rows.nth(index + 1).getByRole('cell');
    await expect(cells.nth(1)).toHaveText(measurement.age);
    await expect(cells.nth(3)).toHaveText(measurement.percentile);
  }
  await expectAccessible(page);

  // BMI from the entry with both weight and height; head circumference has none.
  await page.getByLabel('Chart', { exact: true }).selectOption({ label: 'BMI for age' });
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1).getByRole('cell').nth(2)).toHaveText('16.0 kg/m²');
  await expect(page.getByText('CDC 2000 growth charts', { exact: false })).toBeVisible();
  // The one height, at 2 y 6 mo, is read as a standing height (no lying length: under 24 months).
  await page.getByLabel('Chart', { exact: true }).selectOption({ label: 'Length/height for age' });
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1).getByRole('cell').nth(2)).toHaveText('Height 90.3 cm');
  await page
    .getByLabel('Chart', { exact: true })
    .selectOption({ label: 'Head circumference for age' });
  await expect(page.getByText('No measurements for this chart yet.')).toBeVisible();
});

test('a child shared by one parent is charted for the other, a Viewer', async ({
  page,
  user,
  browser,
}) => {
  void user;
  const today = new Date().toISOString().slice(0, 10);
  const born = daysAfter(today, -300);
  const noa = await addMemberViaApi(page, { name: 'Noa', date_of_birth: born, sex: 'female' });
  // WHO girls' weight: the 50th at 3 months, the 95th at 9 (the first two above).
  for (const { days, weight_kg } of measurements.slice(0, 2)) {
    await createRecordViaApi(page, 'vitals', {
      weight_kg,
      measured_at: `${daysAfter(born, days)}T12:00:00.000Z`,
      family_member_id: noa.id,
    });
  }
  const other = await secondAccount(browser, test.info().project.use.baseURL ?? '');
  // The other parent's own child comes first in their 'Person'.
  await addMemberViaApi(other.page, {
    name: 'Leo',
    date_of_birth: daysAfter(today, -2000),
    sex: 'male',
  });
  await shareViaApi(page, other.page, {
    personId: noa.id,
    email: other.user.email,
    role: 'viewer',
  });

  const grace = other.page;
  await grace.goto('/growth');
  const person = grace.getByLabel('Person', { exact: true });
  await expect(person.getByRole('option')).toHaveText(['Leo', 'Noa (shared by Ann Lee)']);
  await person.selectOption({ label: 'Noa (shared by Ann Lee)' });
  await expect(grace).toHaveURL(new RegExp(`person=${noa.id}`));
  await expect(grace.getByRole('img', { name: 'Growth chart' })).toBeVisible();
  await expect(grace.getByText('WHO Child Growth Standards', { exact: false })).toBeVisible();
  const rows = grace.getByRole('row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1).getByRole('cell').nth(3)).toHaveText('95th');
  await expect(rows.nth(2).getByRole('cell').nth(3)).toHaveText('50th');
  await expectAccessible(grace);
  await grace.screenshot({ path: test.info().outputPath('growth-shared.png'), fullPage: true });
  // A Viewer is not offered to add measurements.
  await grace.getByLabel('Chart', { exact: true }).selectOption({ label: 'BMI for age' });
  await expect(grace.getByText('No measurements for this chart yet.')).toBeVisible();
  await expect(grace.getByRole('link', { name: 'Add vitals' })).toHaveCount(0);
  await other.close();
});

test('on a first birthday the growth table says 12 mo', async ({ page, user }) => {
  void user;
  const today = localDay(0);
  const [year, month, day] = today.split('-').map(Number) as [number, number, number];
  // Born on this day a year ago (on 29 February, the 28th: a year old today all the same).
  const born = `${year - 1}-${String(month).padStart(2, '0')}-${String(Math.min(day, month === 2 ? 28 : day)).padStart(2, '0')}`;
  const mia = await addMemberViaApi(page, { name: 'Mia', date_of_birth: born, sex: 'female' });
  await createRecordViaApi(page, 'vitals', {
    weight_kg: 9.2,
    measured_at: new Date().toISOString(),
    family_member_id: mia.id,
  });
  await page.goto(`/growth?person=${mia.id}`);
  await expect(page.getByRole('img', { name: 'Growth chart' })).toBeVisible();
  const cells = page.getByRole('row').nth(1).getByRole('cell');
  await expect(cells.nth(0)).toHaveText(
    new Date().toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' }),
  );
  await expect(cells.nth(1)).toHaveText('12 mo');
  await page
    .getByRole('table')
    .screenshot({ path: test.info().outputPath('growth-first-birthday.png') });
});
