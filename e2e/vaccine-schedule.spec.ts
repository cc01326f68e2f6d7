import { createRecordViaApi, expect, expectAccessible, test } from './fixtures';

/** A calendar date in the browser's zone, months before today (same day of the month). */
function monthsAgo(months: number): string {
  const date = new Date();
  date.setDate(1);
  date.setMonth(date.getMonth() - months);
  const day = Math.min(new Date().getDate(), 28);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

test('a child’s schedule shows what is due and records MMR dose 1 from the tab', async ({
  page,
  user,
}) => {
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

  // The timeline lists the doses due in the next 30 days; each opens the Schedule tab.
  await page.goto('/');
  const due = page.getByRole('region', { name: 'Vaccines due' });
  const mmrDue = due.getByRole('link', { name: /Nora: MMR dose 1, Due/ });
  await expect(mmrDue).toBeVisible();
  await mmrDue.click();
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
  await page.getByRole('button', { name: 'Save Shot' }).click();
  // The list again, filtered to Nora, whose schedule it was (on the tab that holds the shot).
  await expect(page).toHaveURL(new RegExp(`/shots\\?(.+&)?person=${nora}(&|$)`));
  await page.getByRole('tab', { name: 'Schedule' }).click();
  await page.getByLabel('Person').selectOption({ label: 'Nora' });
  await expect(row('MMR', 1, 2)).toContainText('Done');
});
