/**
 * Today's doses on the timeline: a dose marked taken says when, a skipped one says so,
 * either can be undone, and the medication's detail shows its adherence: from the day the
 * medication was entered, and a past day filled in afterwards. A medication taken at no set
 * time is listed under 'Any time'.
 */
import { createRecordViaApi, expect, expectAccessible, localDay, test } from './fixtures';

const daysAgo = (days: number) => localDay(-days);

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
  // Entered today with a start two days ago: those days are not tracked, never missed;
  // today's morning dose taken; tonight's still due.
  await expect(page.getByText('(1 of 1 dose taken)')).toBeVisible();
  await expect(page.getByText(/^Not tracked before .*: 4 doses left out\.$/)).toBeVisible();
  await expect(
    page.getByRole('list', { name: 'The last 14 days' }).getByRole('listitem'),
  ).toHaveCount(14);
  await expectAccessible(page);

  // Yesterday filled in afterwards: its morning dose taken, so the day counts.
  const yesterday = new Date();
  yesterday.setDate(yesterday.getDate() - 1);
  const day = yesterday.toLocaleDateString('en-US', { month: 'short', day: 'numeric' });
  await expect(page.getByLabel('Fill in a past day')).toHaveValue(daysAgo(1));
  await page.getByRole('button', { name: `Mark Lisinopril Morning taken on ${day}` }).click();
  await expect(page.getByText('(2 of 3 doses taken, 1 missed)')).toBeVisible();
  await expect(
    page.getByRole('button', { name: `Mark Lisinopril Morning taken on ${day}` }),
  ).toHaveAttribute('aria-pressed', 'true');
});

test('a medication taken at no set time is listed under Any time', async ({ page, user }) => {
  void user;
  await createRecordViaApi(page, 'medications', {
    medication_name: 'Fish oil',
    frequency: 'Daily',
    no_set_time: true,
  });
  await page.goto('/');
  const today = page.getByRole('region', { name: "Today's Medications" });
  await expect(today.getByRole('heading', { name: 'Any time' })).toBeVisible();
  await today.getByRole('button', { name: 'Mark Fish oil Any time taken' }).click();
  await expect(today.getByText(/^Taken at /)).toBeVisible();
});

test('a medication name that wraps on a phone keeps its dosage with its separator', async ({
  page,
  user,
}) => {
  void user;
  await page.setViewportSize({ width: 390, height: 844 });
  await createRecordViaApi(page, 'medications', {
    medication_name: 'Amoxicillin suspension',
    dosage: '250 mg',
    frequency: 'Daily',
    time_morning: true,
  });
  await page.goto('/');
  const name = page
    .getByRole('region', { name: "Today's Medications" })
    .getByText('Amoxicillin suspension');
  await expect(name).toBeVisible();
  // Where each character of '·' and of the dosage is drawn: the separator never ends a line
  // on its own, away from the dosage it introduces.
  const lines = await name.evaluate((element) => {
    const top = (text: string) => {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.textContent?.indexOf(text) ?? -1;
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + 1);
        return Math.round(range.getBoundingClientRect().top);
      }
      return null;
    };
    return { name: top('Amoxicillin'), separator: top('·'), dosage: top('250 mg') };
  });
  expect(lines.name).not.toBeNull();
  expect(lines.separator).toBe(lines.dosage);
});
