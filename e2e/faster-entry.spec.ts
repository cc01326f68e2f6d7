/**
 * Faster entry where families type most: 'Measured At' starts at the present, a lab test
 * brings the range used last time (or a typical adult one, with its source), the shot form's
 * 'Vaccine' names the shot, and one shot form records several shots of one visit.
 */
import {
  addMemberViaApi,
  createRecordViaApi,
  expect,
  expectAccessible,
  localDay,
  test,
} from './fixtures';

test('a new vitals entry starts at the present minute', async ({ page, user }) => {
  void user;
  await page.goto('/vitals/new');
  const measuredAt = page.getByLabel('Measured At');
  await expect(measuredAt).toHaveValue(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
  const shown = new Date(await measuredAt.inputValue()).getTime();
  const now = await page.evaluate(() => Date.now());
  expect(Math.abs(now - shown)).toBeLessThan(3 * 60_000);
  // Saved as it is, with one measurement.
  await page.getByLabel('Weight (kg)').fill('70');
  await page.getByRole('button', { name: 'Save Vitals' }).click();
  await expect(page.getByRole('table').getByRole('cell', { name: '70 kg' })).toBeVisible();
});

test('a lab test brings the range used last time for that person, never over what was typed', async ({
  page,
  user,
}) => {
  void user;
  const mia = await addMemberViaApi(page, {
    name: 'Mia',
    date_of_birth: '1990-02-03',
    sex: 'female',
  });
  await createRecordViaApi(page, 'labs', {
    test_name: 'Hemoglobin',
    loinc_code: '718-7',
    result: '13.1',
    unit: 'g/dL',
    range_low: '11.5',
    range_high: '15.5',
    collected_date: localDay(-90),
    family_member_id: mia.id,
  });

  await page.goto('/labs/new');
  await page.getByLabel('Family Member', { exact: true }).selectOption({ label: 'Mia' });
  await page.getByLabel('Test Name').fill('Hemoglobin');
  await expect(page.getByLabel('Unit')).toHaveValue('g/dL');
  await expect(page.getByLabel('Range Low')).toHaveValue('11.5');
  await expect(page.getByLabel('Range High')).toHaveValue('15.5');
  await expect(page.getByText(/The range of the last Hemoglobin result/)).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel('Range High').scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('lab-range-from-last-time.png') });

  // Another test: the range follows it (a typical adult one, with its source, here).
  await page.getByLabel('Test Name').fill('Platelets');
  await expect(page.getByLabel('Range Low')).toHaveValue('140');
  await expect(page.getByLabel('Range High')).toHaveValue('450');
  await expect(page.getByText(/typical adult range \(Merck Manual/)).toBeVisible();

  // What the user typed stays.
  await page.getByLabel('Range Low').fill('150');
  await page.getByLabel('Test Name').fill('Hemoglobin');
  await expect(page.getByLabel('Range Low')).toHaveValue('150');
  await expect(page.getByLabel('Range High')).toHaveValue('15.5');

  // A panel's tests carry typical adult ranges, by the person's sex where they depend on it.
  await page.goto('/labs/new?panel');
  await page.getByLabel('Family Member', { exact: true }).selectOption({ label: 'Mia' });
  await page.getByLabel('Panel', { exact: true }).selectOption('Complete blood count');
  const hemoglobin = page.getByRole('group', { name: 'Row 3' });
  await expect(hemoglobin.getByLabel('Test Name')).toHaveValue('Hemoglobin');
  // Mia's own last range comes first.
  await expect(hemoglobin.getByLabel('Range Low')).toHaveValue('11.5');
  const platelets = page.getByRole('group', { name: 'Row 9' });
  await expect(platelets.getByLabel('Range Low')).toHaveValue('140');
  await expect(platelets.getByLabel('Range High')).toHaveValue('450');
});

test('choosing a Vaccine names the shot, unless a name of one’s own was typed', async ({
  page,
  user,
}) => {
  void user;
  await page.goto('/shots/new');
  const vaccine = page.getByLabel('Vaccine', { exact: true });
  const name = page.getByLabel('Shot Name', { exact: true });
  await vaccine.selectOption({ label: 'MMR' });
  await expect(name).toHaveValue('MMR');
  await vaccine.selectOption({ label: 'Hep B' });
  await expect(name).toHaveValue('Hep B');
  await name.fill('Hep B birth dose');
  await vaccine.selectOption({ label: 'Hep A' });
  await expect(name).toHaveValue('Hep B birth dose');
});

test('two shots given at one visit, saved from one form', async ({ page, user }) => {
  void user;
  await addMemberViaApi(page, { name: 'Mia' });
  await page.goto('/shots');
  await page.getByRole('button', { name: 'Add Shot' }).click();
  await page.getByLabel('Family Member', { exact: true }).selectOption({ label: 'Mia' });
  await page.getByLabel('Vaccine', { exact: true }).selectOption({ label: 'MMR' });
  await page.getByLabel('Date Administered').fill(localDay(-2));
  await page.getByLabel('Location').fill('Health centre');

  await page.getByRole('button', { name: 'Add another shot' }).click();
  // Focus moves to the new pair, each field named with its number.
  await expect(page.getByLabel('Shot Name 2')).toBeFocused();
  await page.getByLabel('Vaccine 2').selectOption({ label: 'Varicella' });
  await expect(page.getByLabel('Shot Name 2')).toHaveValue('Varicella');
  // A third, removed again: focus returns to the button that adds one.
  await page.getByRole('button', { name: 'Add another shot' }).click();
  await expect(page.getByLabel('Shot Name 3')).toBeFocused();
  await page.getByRole('button', { name: 'Remove shot 3' }).click();
  await expect(page.getByLabel('Shot Name 3')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Add another shot' })).toBeFocused();
  await expectAccessible(page);
  await page.getByRole('group', { name: 'Shot 2' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('two-shots-form.png') });

  await page.getByRole('button', { name: 'Save Shot' }).click();
  await expect(page.getByText('2 shots saved', { exact: true })).toBeVisible();
  await expect(page.getByRole('tab', { name: /^Past/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: 'Past(2)' })).toBeVisible();
  for (const shot of ['MMR', 'Varicella']) {
    const card = page.getByRole('link', { name: new RegExp(`^${shot}`) });
    await expect(card).toContainText('Mia');
    await expect(card).toContainText('Health centre');
  }
});

test('a second shot with no name is refused by its own name', async ({ page, user }) => {
  void user;
  await page.goto('/shots/new');
  await page.getByLabel('Shot Name', { exact: true }).fill('Flu shot');
  await page.getByRole('button', { name: 'Add another shot' }).click();
  // The browser's own check is not the only one: remove the attribute to reach the form's.
  await page.getByLabel('Shot Name 2').evaluate((input) => input.removeAttribute('required'));
  await page.getByRole('button', { name: 'Save Shot' }).click();
  await expect(page.getByText('Shot Name 2 is required')).toBeVisible();
  await expect(page.getByLabel('Shot Name 2')).toBeFocused();
});
