/**
 * A field the form moves to (an invalid one, on Save) is in sight with its label, not under
 * the sticky header: on a phone, where the header holds the title and the search field, and
 * on a desktop. The browser scrolls only to a field it deems out of sight, so the field is
 * first put where a fixed allowance for the header would deem it in sight.
 */
import { expect, test } from './fixtures';

test(
  'an invalid field scrolled to is not hidden under the sticky header',
  { tag: '@layout' },
  async ({ page, user }) => {
    void user;
    await page.goto('/vitals/new');
    await page.getByLabel('Measured At').fill('2026-03-04T08:15');
    const weight = page.getByLabel('Weight (kg)');
    const header = page.locator('header').first();
    const headerBox = await header.boundingBox();
    const resting = await weight.boundingBox();
    expect(headerBox && resting).toBeTruthy();
    // The field's top just below the page's old allowance for the header (6rem), its label
    // under the header.
    await page.evaluate((y) => window.scrollTo(0, y), resting!.y - 100);
    await page.getByLabel('Height (cm)').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByText('Enter at least one measurement')).toBeVisible();
    await expect(weight).toBeFocused();

    const headerBottom = headerBox!.y + headerBox!.height;
    const label = await page.locator('label', { hasText: 'Weight (kg)' }).boundingBox();
    const field = await weight.boundingBox();
    expect(label!.y).toBeGreaterThanOrEqual(headerBottom);
    expect(field!.y).toBeGreaterThanOrEqual(headerBottom);
    await page.screenshot({ path: test.info().outputPath('invalid-field-in-sight.png') });
  },
);
