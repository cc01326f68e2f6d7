/**
 * The household with two accounts (CONTRACT.md §4 Household): the owner shares a child as
 * Viewer and is shown a one-time Acceptance Code; the grant is 'Pending' until the other
 * account enters it under 'Shared with you', then that account sees the child's records
 * and cannot change them; upgraded to Editor, they add a shot the owner then sees; access
 * removed, it is gone at once.
 */
import type { Page } from '@playwright/test';
import {
  addMemberViaApi,
  createRecordViaApi,
  expect,
  expectAccessible,
  secondAccount,
  test,
  type TestUser,
} from './fixtures';

/** The shots list on its Past tab (the shots here were all given before today). */
async function pastShots(page: Page) {
  await page.goto('/shots');
  await page.getByRole('tab', { name: /^Past/ }).click();
}

/**
 * Shares a child, or changes the access shared; a new grant answers the Acceptance Code the
 * owner is shown, a change to accepted access none.
 */
async function grant(
  page: Page,
  childName: string,
  other: TestUser,
  role: 'Viewer' | 'Editor',
  change = false,
) {
  await page.goto('/profiles');
  await page.getByRole('button', { name: `Share access to ${childName}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Share Access' });
  await dialog.getByLabel('Email').fill(other.email);
  await dialog.getByLabel('Role').selectOption({ label: role });
  await dialog.getByRole('button', { name: 'Grant Access' }).click();
  if (change) {
    await expect(dialog).toBeHidden();
    return null;
  }
  const code = dialog.getByLabel('Acceptance Code');
  const value = await code.inputValue();
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();
  return value;
}

test('a child shared as Viewer, then Editor, then not at all', async ({ page, user, browser }) => {
  void user;
  const baseURL = test.info().project.use.baseURL ?? '';
  const mia = await addMemberViaApi(page, { name: 'Mia', color: '#ec4899' });
  await createRecordViaApi(page, 'shots', {
    shot_name: 'Measles booster',
    date_administered: '2024-03-01',
    family_member_id: mia.id,
  });
  await createRecordViaApi(page, 'shots', {
    shot_name: 'Tetanus (mine)',
    date_administered: '2024-02-01',
  });
  const grace = await secondAccount(browser, baseURL);

  // Shared, but pending: nothing of Mia's until Grace enters the code.
  const code = await grant(page, 'Mia', grace.user, 'Viewer');
  expect(code).toMatch(/^[A-Z2-9]{5}-[A-Z2-9]{5}$/);
  const access = page.getByRole('list', { name: 'People with access to Mia' });
  await expect(access).toContainText(grace.user.email);
  await expect(access).toContainText('Pending');
  await grace.page.goto('/profiles');
  const shared = grace.page.getByRole('region', { name: 'Shared with you' });
  await expect(shared).not.toContainText('Mia');
  await shared.getByLabel('Acceptance Code').fill('ABCDE-FGHJK');
  await shared.getByRole('button', { name: 'Accept' }).click();
  await expect(shared.getByRole('alert')).toContainText('Acceptance Code is not right');
  await shared.getByLabel('Acceptance Code').fill(code ?? '');
  await shared.getByRole('button', { name: 'Accept' }).click();

  // Viewer: Mia's records, nothing of the owner's own, and no way to change them.
  await expect(shared).toContainText('Mia');
  await expect(shared).toContainText('Shared by Ann Lee');
  await expect(shared).toContainText('Viewer');
  await expectAccessible(grace.page);
  await pastShots(grace.page);
  await expect(grace.page.getByRole('link', { name: /Measles booster/ })).toBeVisible();
  await expect(grace.page.getByText('Tetanus (mine)')).toHaveCount(0);
  await grace.page.getByRole('link', { name: /Measles booster/ }).click();
  await expect(grace.page.getByRole('heading', { name: 'Measles booster' })).toBeVisible();
  await expect(grace.page.getByText('you can view this record but not change it')).toBeVisible();
  await expect(grace.page.getByRole('button', { name: 'Edit Shot' })).toHaveCount(0);
  await expect(grace.page.getByRole('button', { name: 'Delete Shot' })).toHaveCount(0);
  await grace.page.goto('/');
  await expect(grace.page.getByRole('link', { name: /Measles booster/ })).toBeVisible();

  await page.reload();
  await expect(access).toContainText('Accepted by Grace Kim');

  // Editor: Grace adds a shot for Mia, which the owner then sees, marked as hers.
  await grant(page, 'Mia', grace.user, 'Editor', true);
  await grace.page.goto('/shots/new');
  await grace.page.getByLabel('Shot Name').fill('Chickenpox');
  await grace.page.getByLabel('Date Administered').fill('2024-06-01');
  await grace.page.getByLabel('Family Member').selectOption({ label: 'Mia (shared by Ann Lee)' });
  await grace.page.getByRole('button', { name: 'Save Shot' }).click();
  // The list, on the tab that holds a shot given in the past.
  await expect(grace.page).toHaveURL(/\/shots\?tab=past$/);
  await pastShots(page);
  await page.getByRole('link', { name: /Chickenpox/ }).click();
  await expect(page.getByText('Last changed by')).toBeVisible();
  await expect(page.getByText('Grace Kim')).toBeVisible();

  // Removed: gone from Grace's very next look.
  await page.goto('/profiles');
  await page.getByRole('button', { name: `Remove access for ${grace.user.email}` }).click();
  await page
    .getByRole('alertdialog')
    .getByRole('button', { name: /^Delete/ })
    .click();
  await expect(page.getByRole('list', { name: 'People with access to Mia' })).toHaveCount(0);
  await pastShots(grace.page);
  await expect(grace.page.getByText('No past shots')).toBeVisible();
  await expect(grace.page.getByText('Measles booster')).toHaveCount(0);
  await grace.page.goto('/profiles');
  await expect(grace.page.getByRole('heading', { name: 'Shared with you' })).toHaveCount(0);
  await grace.close();
});

test(
  'Share Access names the field of a refused email',
  { tag: '@layout' },
  async ({ page, user }) => {
    await page.goto('/profiles');
    await expect(page.getByRole('heading', { name: 'You' })).toBeVisible();
    await page.getByRole('button', { name: `Share access to ${user.name}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Share Access' });
    await dialog.getByLabel('Email').fill(user.email);
    await dialog.getByRole('button', { name: 'Grant Access' }).click();
    await expect(dialog.getByRole('alert')).toContainText('Email is your own');
    await expectAccessible(page);
  },
);

test('Share Access may alert of a missed dose after some minutes', async ({ page, user }) => {
  void user;
  await addMemberViaApi(page, { name: 'Mia', color: '#ec4899' });
  await page.goto('/profiles');
  await page.getByRole('button', { name: 'Share access to Mia' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share Access' });
  const alert = dialog.getByRole('checkbox', { name: 'Alert when a dose is missed' });
  const minutes = dialog.getByRole('spinbutton', { name: 'Alert after (minutes)' });
  await expect(alert).not.toBeChecked();
  await expect(minutes).toHaveValue('60');
  await dialog.getByLabel('Email').fill('grandma@example.com');
  await alert.check();
  await minutes.fill('3');
  await dialog.getByRole('button', { name: 'Grant Access' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(
    'Alert after (minutes) must be a whole number from 5 to 1440',
  );
  await expect(minutes).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page);
  await page.screenshot({ path: test.info().outputPath('share-access-alert.png') });
  await minutes.fill('30');
  await dialog.getByRole('button', { name: 'Grant Access' }).click();
  await dialog.getByRole('button', { name: 'Done' }).click();
  const access = page.getByRole('list', { name: 'People with access to Mia' });
  await expect(access).toContainText('alerted of a missed dose after 30 minutes');

  // Changed: the dialog shows the grant's setting, and turning it off is kept.
  await page.getByRole('button', { name: 'Change access for grandma@example.com' }).click();
  await expect(alert).toBeChecked();
  await expect(minutes).toHaveValue('30');
  await alert.uncheck();
  await dialog.getByRole('button', { name: 'Grant Access' }).click();
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(access).toContainText('grandma@example.com');
  await expect(access).not.toContainText('missed dose');
});

/** The app's tab comes back into view (the person switches back to it). */
async function comeBack(page: Page) {
  await page.evaluate(() =>
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true })),
  );
}

test('sharing reaches both accounts’ open screens without a reload', async ({
  page,
  user,
  browser,
}) => {
  void user;
  const baseURL = test.info().project.use.baseURL ?? '';
  await addMemberViaApi(page, { name: 'Mia', color: '#ec4899' });
  const grace = await secondAccount(browser, baseURL);
  // Grace's clock is the page's own, so that the minutes she leaves the screen open pass at once.
  await grace.page.clock.install();
  await grace.page.goto('/profiles');
  await expect(grace.page.getByRole('heading', { name: 'Family Profiles' })).toBeVisible();
  const shared = grace.page.getByRole('region', { name: 'Shared with you' });
  await expect(shared).toHaveCount(0);

  // Shared while Grace's screen is open; she comes back to it with the code.
  const code = await grant(page, 'Mia', grace.user, 'Viewer');
  await comeBack(grace.page);
  await expect(shared.getByLabel('Acceptance Code')).toBeVisible();
  await shared.getByLabel('Acceptance Code').fill(code ?? '');
  await shared.getByRole('button', { name: 'Accept' }).click();
  await expect(shared).toContainText('Mia');
  // Mia is at once among the persons of Grace's other screens.
  await grace.page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Timeline' })
    .click();
  await expect(grace.page.getByRole('button', { name: /^Mia/ })).toBeVisible();

  // The owner's open page hears of the acceptance when it is looked at again.
  const access = page.getByRole('list', { name: 'People with access to Mia' });
  await expect(access).toContainText('Pending');
  await comeBack(page);
  await expect(access).toContainText('Accepted by Grace Kim');

  // Removed while Grace's timeline stays open, in view: within a minute, Mia is gone from it.
  await page.getByRole('button', { name: `Remove access for ${grace.user.email}` }).click();
  await page
    .getByRole('alertdialog')
    .getByRole('button', { name: /^Delete/ })
    .click();
  await expect(access).toHaveCount(0);
  // Each half minute of Grace's clock asks again; a reply still on its way when the clock
  // jumped is not the last word, so the clock goes on until the screen has heard.
  await expect(async () => {
    await grace.page.clock.fastForward('00:31');
    await expect(grace.page.getByRole('button', { name: /^Mia/ })).toHaveCount(0, {
      timeout: 2_000,
    });
  }).toPass({ timeout: 30_000 });
  await grace.close();
});
