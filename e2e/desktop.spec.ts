/**
 * The computer at home (CONTRACT §6 'Desktop', issue 52): from 1024 px wide the navigation is
 * a side bar down the left with the bottom bar's names, 'Health Records' folding out to every
 * record type, Documents and Growth, and Search; the keyboard reaches search ('/'), Add New
 * ('n') and the shortcuts ('?'); printing leaves the navigation out; and no screen scrolls
 * sideways at any width from 320 to 2560 px.
 */
import type { Locator } from '@playwright/test';
import { createRecordViaApi, expect, expectAccessible, test } from './fixtures';

/** The record id a list link opens. */
const idOf = async (link: Locator) =>
  (await link.getAttribute('href'))?.split('?')[0]?.split('/').pop() ?? '';

test.describe('at a desk', { tag: '@layout' }, () => {
  test.beforeEach(() => {
    test.skip(test.info().project.name !== 'desktop', 'the side bar is for wide screens');
  });

  test('the side bar has the bottom bar’s names, and Health Records folds out', async ({
    page,
    user,
  }) => {
    void user;
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    const box = await nav.boundingBox();
    const viewport = page.viewportSize()!;
    // Down the left, the whole height.
    expect(box).toMatchObject({ x: 0, y: 0 });
    expect(box!.height).toBeGreaterThanOrEqual(viewport.height - 1);
    expect(box!.width).toBeLessThan(300);
    for (const name of ['Timeline', 'List', 'Share', 'Contacts', 'Search']) {
      await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
    }
    await expect(nav.getByRole('button', { name: 'Add' })).toBeVisible();
    // The record types wait in a closed group (the List screen's cards keep their names alone).
    await expect(nav.getByRole('link', { name: 'Visits', exact: true })).toHaveCount(0);
    await nav.getByText('Health Records').click();
    for (const name of ['Visits', 'Medications', 'Lab Results', 'Vitals', 'Documents', 'Growth']) {
      await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
    }
    await expectAccessible(page);
    await page.screenshot({ path: test.info().outputPath('side-bar.png') });
    await nav.getByRole('link', { name: 'Lab Results', exact: true }).click();
    await expect(page).toHaveURL(/\/labs$/);
    await expect(nav.getByRole('link', { name: 'Lab Results', exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );
    // Open as it was left, on the next page load.
    await page.reload();
    await expect(nav.getByRole('link', { name: 'Visits', exact: true })).toBeVisible();
  });

  test('the keyboard reaches search, Add New and the shortcuts', async ({ page, user }) => {
    void user;
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.keyboard.press('n');
    const addNew = page.getByRole('dialog', { name: 'Add New' });
    await expect(addNew).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(addNew).toHaveCount(0);

    await page.keyboard.press('?');
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect(sheet).toContainText('Search records and documents');
    await expect(sheet).toContainText('Add New');
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await expect(sheet).toHaveCount(0);
    // Focus is back on the screen's title, as after any dialog.
    await expect(page.getByRole('heading', { level: 1 })).toBeFocused();

    await page.keyboard.press('/');
    await expect(page.getByRole('searchbox', { name: 'Search' })).toBeFocused();
    // Typed into the field, 'n' is a letter, not a shortcut.
    await page.keyboard.type('n');
    await expect(page.getByRole('dialog', { name: 'Add New' })).toHaveCount(0);
  });

  test('a record’s list stands beside it, and the keyboard moves along it', async ({
    page,
    user,
  }) => {
    void user;
    const visits = [];
    for (const [name, days] of [
      ['Ear check', -30],
      ['Dental cleaning', -20],
      ['Eye exam', -10],
    ] as const) {
      visits.push(
        await createRecordViaApi(page, 'visits', {
          visit_name: name,
          visit_date: new Date(Date.now() + days * 86_400_000).toISOString(),
          doctor_name: 'Dr. Lee',
        }),
      );
    }
    await page.goto(`/visits/${visits[1]!.id}`);
    const record = page.getByRole('main');
    await expect(record.getByRole('heading', { name: 'Dental cleaning' })).toBeVisible();
    const pane = page.getByRole('navigation', { name: 'Visits list' });
    await expect(pane.getByRole('link')).toHaveCount(3);
    const open = pane.getByRole('link', { name: /Dental cleaning/ });
    await expect(open).toHaveAttribute('aria-current', 'page');
    // Beside the page, not over it.
    const paneBox = (await pane.boundingBox())!;
    const heading = (await page.getByRole('heading', { level: 1 }).boundingBox())!;
    expect(heading.x).toBeGreaterThan(paneBox.x + paneBox.width);
    await expectAccessible(page);
    await page.screenshot({ path: test.info().outputPath('list-detail.png') });

    await open.focus();
    await page.keyboard.press('ArrowDown');
    const next = pane.getByRole('link').nth(2);
    await expect(next).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/visits/${await idOf(next)}$`));
    await expect(record.getByRole('heading', { name: 'Ear check' })).toBeVisible();
    await pane.getByRole('link').first().focus();
    await page.keyboard.press('End');
    await expect(pane.getByRole('link').nth(2)).toBeFocused();
    await page.keyboard.press('Home');
    await expect(pane.getByRole('link').first()).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(/\/visits(\?.*)?$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Visits' })).toBeVisible();
  });

  test('printing a screen leaves the navigation out', async ({ page, user }) => {
    void user;
    await page.goto('/list');
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.emulateMedia({ media: 'screen' });
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  });

  // One test a width: forty-nine page loads in one test came within seconds of its time limit
  // on a slow two-core machine.
  for (const width of [320, 390, 768, 1024, 1280, 1920, 2560]) {
    test(`no screen scrolls sideways at ${width} px wide`, async ({ page, user }) => {
      void user;
      await page.setViewportSize({ width, height: 900 });
      for (const screen of [
        '/',
        '/list',
        '/visits',
        '/labs',
        '/documents',
        '/share',
        '/profile-settings',
      ]) {
        await page.goto(screen);
        await page.getByRole('heading', { level: 1 }).waitFor();
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow, `${screen} at ${width} px`).toBeLessThanOrEqual(0);
      }
    });
  }
});
