/**
 * Medication supply (CONTRACT §6): the form's four fields, 'Runs out {date}' on the detail, a
 * dose taken on the timeline lowering the quantity, a skipped one moving the forecast,
 * 'Refilled' adding a pack, and 'Refill reminders' in Reminders.
 */
import { expect, expectAccessible, localDay, test } from './fixtures';

const longDate = (day: string) =>
  new Date(`${day}T12:00:00`).toLocaleDateString('en-US', {
    month: 'long',
    day: 'numeric',
    year: 'numeric',
  });

test('a supply kept: runs out, falls with a dose taken, moves with a skip, refilled', async ({
  page,
  user,
}) => {
  void user;
  await page.goto('/medications/new');
  await page.getByLabel('Medication Name').fill('Amoxicillin');
  await page.getByLabel('Frequency').selectOption('Twice Daily');
  await page.getByLabel('Morning').check();
  await page.getByLabel('Evening').check();
  await page.getByLabel('Start Date').fill(localDay(0));
  await expect(page.getByLabel('Dose Amount')).toHaveValue('1');
  await page.getByLabel('Quantity On Hand').fill('-4');
  await page.getByRole('button', { name: 'Save Medication' }).click();
  await expect(page.getByText('Quantity On Hand must be between 0 and 100000')).toBeVisible();
  await page.getByLabel('Quantity On Hand').fill('30');
  await page.getByLabel('Dose Amount').fill('2');
  await page.getByLabel('Refills Left').fill('1');
  await page.getByLabel('Prescription Ends').fill(localDay(90));
  await page.getByRole('button', { name: 'Save Medication' }).click();
  await page
    .getByRole('link', { name: /Amoxicillin/ })
    .first()
    .click();

  // 15 doses, two a day: today and six more days, and the morning of the eighth.
  await expect(page.getByText(`Runs out ${longDate(localDay(7))}`)).toBeVisible();
  const onHand = page.locator(
    'xpath=//dt[normalize-space()="Quantity On Hand"]/following-sibling::dd[1]',
  );
  await expect(onHand).toHaveText('30');
  await expectAccessible(page);
  const detail = page.url();

  await page.goto('/');
  const today = page.getByRole('region', { name: "Today's Medications" });
  await today.getByRole('button', { name: 'Mark Amoxicillin Morning taken' }).click();
  await expect(today.getByText(/^Taken at /)).toBeVisible();
  await page.goto(detail);
  await expect(onHand).toHaveText('28');
  await expect(page.getByText(`Runs out ${longDate(localDay(7))}`)).toBeVisible();

  // The evening's dose skipped: nothing taken, and the pills last a dose longer.
  await page.goto('/');
  await today.getByRole('button', { name: 'Skip Amoxicillin Evening' }).click();
  await expect(today.getByText('Skipped', { exact: true })).toBeVisible();
  await page.goto(detail);
  await expect(onHand).toHaveText('28');
  await expect(page.getByText(`Runs out ${longDate(localDay(8))}`)).toBeVisible();

  await page.getByRole('button', { name: 'Refilled' }).click();
  const dialog = page.getByRole('dialog', { name: 'Refilled' });
  await dialog.getByLabel('Pack Size').fill('ten');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Pack Size must be a number')).toBeVisible();
  await dialog.getByLabel('Pack Size').fill('30');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(onHand).toHaveText('58');
  // The last refill used: the next supply needs the doctor.
  await expect(page.getByText('Ask the doctor for a new prescription')).toBeVisible();
  // The pack's size is offered next time.
  await page.getByRole('button', { name: 'Refilled' }).click();
  await expect(dialog.getByLabel('Pack Size')).toHaveValue('30');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await page.goto('/profile-settings');
  await expect(page.getByRole('switch', { name: 'Refill reminders', exact: true })).toHaveAttribute(
    'aria-checked',
    'true',
  );
  await expect(page.getByLabel('Days Before Running Out')).toHaveValue('7');
});
