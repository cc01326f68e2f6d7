/**
 * The names CONTRACT.md §2 and §4 give, found exactly as a strict test finds them: every
 * form's labels by their exact text (a required field's mark is not part of its label),
 * and focus returning to what opened a dialog.
 */
import { recordDefinitions } from '../src/shared/records';
import type { FieldSpec } from '../src/shared/records/fields';
import { fieldLabel } from '../src/web/features/records/form-values';
import { expect, test } from './fixtures';

/**
 * Each record form's labels, from the definitions the forms are drawn from (their unit test,
 * src/shared/records/definitions.test.ts, holds them to CONTRACT.md's table); the relation
 * shows only with the family-history switch on, and a lab result's LOINC code is kept out of
 * sight (the Test Name's suggestion fills it). A measure's label names its unit, Metric by
 * default ('Weight (kg)'), as CONTRACT.md §5 allows.
 */
const FORM_LABELS = recordDefinitions.map((definition) => ({
  path: definition.path,
  labels: Object.values(definition.fields as Record<string, FieldSpec>)
    .filter((field) => field.label !== 'Relation' && field.label !== 'LOINC Code')
    .map((field) => fieldLabel(field, 'metric')),
}));

test('every form field is found by its exact label', async ({ page, user }) => {
  void user;
  expect(FORM_LABELS).toHaveLength(11);
  for (const { path, labels } of FORM_LABELS) {
    await page.goto(`/${path}/new`);
    for (const label of labels) {
      await expect(page.getByLabel(label, { exact: true }), `${path}: ${label}`).toHaveCount(1);
    }
  }
  // The relation appears, required, with the family-history switch on.
  await page.goto('/history/new');
  await page.getByLabel('Family History', { exact: true }).check();
  await expect(page.getByLabel('Relation', { exact: true })).toHaveAttribute('required', '');

  await page.goto('/profile-settings');
  await expect(page.getByLabel('Email', { exact: true })).toHaveAttribute('readonly', '');
  await expect(page.getByLabel('Full Name', { exact: true })).toBeVisible();
});

test('a dialog takes focus to its first field and gives it back on closing', async ({
  page,
  user,
}) => {
  void user;
  await page.goto('/profiles');
  const opener = page.getByRole('button', { name: 'Add Family Member' });
  await opener.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Add Family Member' });
  await expect(dialog.getByLabel('Name', { exact: true })).toBeFocused();
  await expect(dialog.getByLabel('Date of Birth', { exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();

  const share = page.getByRole('button', { name: /^Share access to / }).first();
  await share.focus();
  await page.keyboard.press('Enter');
  const access = page.getByRole('dialog', { name: 'Share Access' });
  await expect(access.getByLabel('Email', { exact: true })).toBeFocused();
  await expect(access.getByLabel('Role', { exact: true })).toBeVisible();
  await expect(access.getByLabel('Access Ends', { exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(share).toBeFocused();

  // Opened from a menu that has closed since: focus comes back to the page, not to nothing.
  await page.goto('/');
  await page.getByRole('button', { name: 'Account', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete Account' }).click();
  await expect(page.getByRole('alertdialog')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('alertdialog')).toBeHidden();
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.tagName))
    .toMatch(/^(H1|BUTTON)$/);
});

test('a field tabbed to stays clear of the header and the bottom navigation', async ({
  page,
  user,
}) => {
  void user;
  await page.goto('/medications/new');
  const header = await page.locator('header').first().boundingBox();
  const nav = await page.getByRole('navigation', { name: 'Main' }).boundingBox();
  const focusedIsClear = async (step: string) => {
    const box = await page.evaluate(() => {
      const rect = document.activeElement?.getBoundingClientRect();
      return rect ? { top: rect.top, bottom: rect.bottom } : null;
    });
    expect(box, step).not.toBeNull();
    expect(box!.top, `${step}: below the header`).toBeGreaterThanOrEqual(
      header!.y + header!.height - 1,
    );
    expect(box!.bottom, `${step}: above the navigation`).toBeLessThanOrEqual(nav!.y + 1);
  };
  await page.getByLabel('Medication Name', { exact: true }).focus();
  // Down the form to its buttons, then back up: each control scrolled to from above and below.
  const steps = 16;
  for (let step = 1; step <= steps; step++) {
    await page.keyboard.press('Tab');
    await focusedIsClear(`Tab ${step}`);
  }
  for (let step = 1; step < steps; step++) {
    await page.keyboard.press('Shift+Tab');
    await focusedIsClear(`Shift+Tab ${step}`);
  }
});
