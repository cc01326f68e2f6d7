/**
 * Today's doses on the timeline: a dose marked taken says when, a skipped one says so,
 * either can be undone, and the medication's detail shows its adherence.
 */
import { createRecordViaApi, expect, expectAccessible, test } from './fixtures';

const daysAgo = (days: number) => {
  const date = new Date();
  date.setDate(date.getDate() - days);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
};

test('a user marks today’s doses taken and skipped, undoes one, and sees the adherence', async ({
  page,
  user,
}) => {
  void user;
  const medication = await createRecordViaApi(page, 'medications', {
    medication_name: 'Lisinopril',
    dosage: '10 mg',
    frequency: 'Daily',
    time_morning: true,
    time_night: true,
    start_date: daysAgo(2),
  });
  await createRecordViaApi(page, 'medications', {
    medication_name: 'Ibuprofen',
    frequency: 'As Needed',
    start_date: daysAgo(2),
  });

  await page.goto('/');
  const today = page.getByRole('region', { name: "Today's Medications" });
  await expect(today.getByRole('heading', { name: "Today's Medications" })).toBeVisible();
  await expectAccessible(page);

  await today.getByRole('button', { name: 'Mark Lisinopril Morning taken' }).click();
  await expect(today.getByText(/^Taken at \d{1,2}:\d{2} (AM|PM)$/)).toBeVisible();
  // Undo says what it undoes, to a screen reader.
  await expect(
    today
      .getByRole('listitem')
      .filter({ hasText: 'Taken at' })
      .getByRole('button', { name: 'Undo' }),
  ).toHaveAccessibleDescription(/^Taken at \d{1,2}:\d{2} (AM|PM) Lisinopril · 10 mg$/);
  // Focus follows to the button that replaced the one pressed.
  await expect(
    today
      .getByRole('listitem')
      .filter({ hasText: 'Taken at' })
      .getByRole('button', { name: 'Undo' }),
  ).toBeFocused();
  await today.getByRole('button', { name: 'Skip Lisinopril Night' }).click();
  await expect(today.getByText('Skipped', { exact: true })).toBeVisible();
  await expect(today.getByRole('button', { name: 'Undo' })).toHaveCount(2);

  // Undo the skip: the night dose is due again.
  await today
    .getByRole('listitem')
    .filter({ hasText: 'Skipped' })
    .getByRole('button', { name: 'Undo' })
    .click();
  await expect(today.getByRole('button', { name: 'Skip Lisinopril Night' })).toBeVisible();
  await expect(today.getByRole('button', { name: 'Mark Lisinopril Night taken' })).toBeFocused();
  await today.getByRole('button', { name: 'Log Ibuprofen taken' }).click();
  await expect(today.getByText(/taken 1× today/)).toBeVisible();

  await page.goto(`/medications/${medication.id}`);
  await expect(page.getByText('Adherence (30 days)')).toBeVisible();
  // Two days before today: four doses missed; today's morning dose taken; tonight's still due.
  await expect(page.getByText('(1 of 5 doses taken, 4 missed)')).toBeVisible();
  await expect(
    page.getByRole('list', { name: 'The last 14 days' }).getByRole('listitem'),
  ).toHaveCount(14);
  await expectAccessible(page);
});
