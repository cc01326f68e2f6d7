import {
  addMemberViaApi,
  createRecordViaApi,
  expect,
  expectAccessible,
  localDay,
  test,
} from './fixtures';

/** A calendar date in the browser's zone, months before today (same day of the month). */
function monthsAgo(months: number): string {
  const date = new Date();
  date.setDate(1);
  date.setMonth(date.getMonth() - months);
  const day = Math.min(new Date().getDate(), 28);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

test(
  'a child’s schedule shows what is due and records MMR dose 1 from the tab',
  { tag: '@layout' },
  async ({ page, user }) => {
    void user;
    await page.goto('/profiles');
    await page.getByRole('button', { name: 'Add Family Member' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Family Member' });
    await dialog.getByLabel('Name').fill('Nora');
    await dialog.getByLabel('Date of Birth').fill(monthsAgo(14));
    await dialog.getByLabel('Sex').selectOption({ label: 'Female' });
    await dialog.getByRole('button', { name: 'Add Member' }).click();
    await expect(page.getByRole('heading', { name: 'Nora' })).toBeVisible();
    const members = (await (await page.request.get('/api/family-members')).json()) as {
      id: string;
    }[];
    const nora = members[0]!.id;

    // The birth Hep B dose, and the 2-, 4- and 6-month doses.
    const shots: [string, string, number][] = [['Hep B', '45', 14]];
    for (const age of [2, 4, 6]) {
      for (const [name, cvx] of [
        ['DTaP', '107'],
        ['Hib', '17'],
        ['IPV', '10'],
        ['PCV', '152'],
        ['Rotavirus', '122'],
      ] as const) {
        shots.push([name, cvx, 14 - age]);
      }
    }
    shots.push(['Hep B', '45', 12], ['Hep B', '45', 8]);
    for (const [name, cvx, ago] of shots) {
      await createRecordViaApi(page, 'shots', {
        shot_name: name,
        vaccine_code: cvx,
        date_administered: monthsAgo(ago),
        family_member_id: nora,
      });
    }

    // The timeline has one card for Nora, counting the doses due in the next 30 days; it opens
    // her Schedule tab.
    await page.goto('/');
    const due = page.getByRole('region', { name: 'Vaccines due' });
    await expect(due.getByRole('link')).toHaveCount(1);
    const noraDue = due.getByRole('link', { name: /^Nora: \d+ vaccine doses?, .*due now/ });
    await expect(noraDue).toBeVisible();
    await noraDue.click();
    await expect(page.getByRole('tab', { name: 'Schedule' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(page.getByLabel('Person')).toHaveValue(nora);
    await expect(
      page.getByText(/advice, not a prescription.*CDC CDSi supporting data v4\.64/),
    ).toBeVisible();
    const schedule = page.getByRole('list', { name: 'Vaccine schedule' });
    const row = (vaccine: string, dose: number, of: number) =>
      schedule
        .getByRole('listitem')
        .filter({ hasText: vaccine })
        .filter({
          hasText: `Dose ${dose} of ${of}`,
        });
    await expect(row('MMR', 1, 2)).toContainText('Due');
    await expect(row('Varicella', 1, 2)).toContainText('Due');
    await expect(row('Hep A', 1, 2)).toContainText('Due');
    await expect(row('DTaP', 4, 6)).toContainText('Upcoming');
    await expect(row('DTaP', 4, 6)).toContainText(/due \w{3} \d{1,2}, \d{4}/);
    await expectAccessible(page);

    await page.getByRole('link', { name: 'Record MMR dose 1' }).click();
    await expect(page.getByLabel('Vaccine', { exact: true })).toHaveValue('03');
    await expect(page.getByLabel('Shot Name')).toHaveValue('MMR dose 1');
    // Dated today, as the button fills it in: a shot given, listed under 'Past'.
    await expect(page.getByLabel('Date Administered')).toHaveValue(localDay(0));
    await page.getByRole('button', { name: 'Save Shot' }).click();
    // The list again, filtered to Nora, whose schedule it was, on the tab that holds the shot.
    await expect(page).toHaveURL(new RegExp(`/shots\\?(.+&)?person=${nora}(&|$)`));
    await expect(page).toHaveURL(/[?&]tab=past(&|$)/);
    await expect(page.getByRole('tab', { name: `Past(${shots.length + 1})` })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(page.getByRole('tab', { name: 'Upcoming(0)' })).toBeVisible();
    await expect(page.getByRole('link', { name: /MMR dose 1/ })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('shots-past-after-record.png') });
    await page.getByRole('tab', { name: 'Schedule' }).click();
    await page.getByLabel('Person').selectOption({ label: 'Nora' });
    await expect(row('MMR', 1, 2)).toContainText('Done');
  },
);

test('a grandmother’s schedule is an adult’s, and can be turned off for her', async ({
  page,
  user,
}) => {
  void user;
  const rose = await addMemberViaApi(page, {
    name: 'Rose',
    date_of_birth: '1954-03-10',
    sex: 'female',
  });
  // A child with no shots entered yet: one card for her on the timeline, not one per dose.
  await addMemberViaApi(page, { name: 'Mia', date_of_birth: monthsAgo(14), sex: 'female' });
  await page.goto('/');
  const due = page.getByRole('region', { name: 'Vaccines due' });
  await expect(due.getByRole('link')).toHaveCount(2);
  await expect(
    due.getByRole('link', { name: /^Mia: \d+ vaccine doses, \d+ overdue/ }),
  ).toBeVisible();
  await due.getByRole('link', { name: /^Rose: / }).click();

  await expect(page.getByLabel('Person')).toHaveValue(rose.id);
  const schedule = page.getByRole('list', { name: 'Vaccine schedule' });
  const row = (vaccine: string, dose: number) =>
    schedule.getByRole('listitem').filter({ hasText: new RegExp(`^${vaccine}Dose ${dose} of`) });
  await expect(row('Zoster', 1)).toContainText('due now');
  await expect(row('Zoster', 1)).toContainText('Due');
  await expect(row('Pneumococcal', 1)).toContainText('due now');
  await expect(row('Tdap', 1)).toContainText('due now');
  await expect(row('RSV', 1)).toContainText('Upcoming');
  await expect(schedule).not.toContainText('Overdue');
  await expect(schedule).not.toContainText(/19[5-6]\d/);
  for (const childhood of ['MMR', 'Varicella', 'Hib', 'DTaP', 'Rotavirus']) {
    await expect(row(childhood, 1)).toHaveCount(0);
  }
  const immune = page.getByRole('region', { name: 'Presumed immune' });
  await expect(immune).toContainText('MMR: presumed immune, born before 1957');
  await expect(immune).toContainText('Varicella: presumed immune, born before 1980');
  await expectAccessible(page);
  await page.screenshot({
    path: test.info().outputPath('grandmother-schedule.png'),
    fullPage: true,
  });

  // The shot form offers the adult vaccines.
  await page.getByRole('link', { name: 'Record Zoster dose 1' }).click();
  await expect(page.getByLabel('Vaccine', { exact: true })).toHaveValue('187');
  await expect(
    page.getByLabel('Vaccine', { exact: true }).locator('option', { hasText: 'Pneumococcal' }),
  ).toHaveCount(1);
  await page.goBack();

  await page.getByRole('button', { name: 'Stop tracking vaccines for Rose' }).click();
  await expect(page.getByText('Not tracked for Rose')).toBeVisible();
  await page.goto('/');
  await expect(due.getByRole('link')).toHaveCount(1);
  await expect(due.getByRole('link', { name: /^Rose: / })).toHaveCount(0);
  await page.goto(`/shots?tab=schedule&person=${rose.id}`);
  await page.getByRole('button', { name: 'Track vaccines for Rose' }).click();
  await expect(row('Zoster', 1)).toContainText('due now');
});
