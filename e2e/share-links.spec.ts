import type { Page } from '@playwright/test';
import { SHARE_LINK_PASSCODE_ATTEMPTS } from '../src/shared/share-links';
import {
  addMemberViaApi,
  createRecordViaApi,
  expect,
  expectAccessible,
  localDay,
  secondAccount,
  shareViaApi,
  test,
} from './fixtures';

/** The owner's child Leo, with a severe allergy. */
async function leoWithAnAllergy(page: Page) {
  const leo = await addMemberViaApi(page, { name: 'Leo Garcia', date_of_birth: '2017-04-12' });
  await createRecordViaApi(page, 'allergies', {
    substance: 'Penicillin',
    reaction: 'Hives',
    severity: 'Severe',
    family_member_id: leo.id,
  });
  return leo;
}

/** A doctor opens the link on the page with their name and a passcode. */
async function openAsDrChen(viewer: Page, passcode: string) {
  await viewer.getByLabel('Your name').fill('Dr. Chen');
  await viewer.getByLabel('Passcode').fill(passcode);
  await viewer.getByRole('button', { name: 'Open' }).click();
}

/** The four ways of sharing, each a button named by its title alone. */
const SHARE_CARDS = [
  'Export as PDF',
  'Share via Email',
  'Share via Message',
  'Generate Share Link',
];

test('a share link with a passcode opens without an account, is revoked, and logs its openings', async ({
  page,
  user,
  browser,
}) => {
  void user;
  const leo = await leoWithAnAllergy(page);
  await createRecordViaApi(page, 'medications', {
    medication_name: 'Amoxicillin',
    dosage: '250 mg',
    frequency: 'Twice Daily',
    time_morning: true,
    time_evening: true,
    start_date: '2026-01-01',
    family_member_id: leo.id,
  });
  await createRecordViaApi(page, 'insurance', {
    provider_name: 'Acme Health',
    insurance_type: 'Medical',
    policy_number: 'P-100',
    family_member_id: leo.id,
  });
  // Given today: an immunization with its date, not a shot 'Due'.
  await createRecordViaApi(page, 'shots', {
    shot_name: 'DTaP dose 2',
    date_administered: localDay(0),
    family_member_id: leo.id,
  });

  await page.goto('/share');
  for (const name of SHARE_CARDS) {
    await expect(page.getByRole('button', { name, exact: true })).toBeVisible();
  }
  await page.getByRole('button', { name: 'Generate Share Link', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Generate Share Link' });
  await dialog.getByLabel('Person').selectOption({ label: 'Leo Garcia' });
  await expect(dialog.getByLabel('Expires')).toHaveValue('7');
  await expect(dialog.getByRole('option', { name: '7 days' })).toBeAttached();
  await dialog.getByLabel('Link Passcode').fill('2468');
  await expectAccessible(page);
  await page.screenshot({ path: test.info().outputPath('share-dialog.png') });
  await dialog.getByRole('button', { name: 'Create Link' }).click();

  const field = dialog.getByLabel('Share Link');
  await expect(field).toHaveValue(/^http:\/\/localhost:\d+\/shl#shlink:\//);
  // The link takes the place of the form, and focus.
  await expect(field).toBeFocused();
  await expect(field).toHaveAttribute('readonly', '');
  await expect(dialog.getByRole('img', { name: 'QR code for the share link' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Copy Link' })).toBeVisible();
  // Shown once: the dialog says so, and repeats the passcode and the expiry with it.
  await expect(dialog.getByText('Shown only now')).toBeVisible();
  await expect(dialog.getByText('Passcode: 2468')).toBeVisible();
  const expiry = new Date(Date.now() + 7 * 24 * 60 * 60 * 1000);
  await expect(dialog.getByText(/^Expires /)).toContainText(
    expiry.toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric' }),
  );
  // Made on localhost: it says others cannot open it, and how to fix that.
  await expect(
    dialog.getByRole('note').filter({ hasText: 'Others cannot open this link.' }),
  ).toContainText('BASE_URL');
  await page.screenshot({ path: test.info().outputPath('share-link-created.png') });
  const link = await field.inputValue();
  await page.keyboard.press('Escape');

  // A fresh browser: no account, no session.
  const stranger = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const viewer = await stranger.newPage();
  await viewer.goto(link);
  await openAsDrChen(viewer, '1357');
  await expect(viewer.getByText('Wrong passcode', { exact: true })).toBeVisible();
  await expect(
    viewer.getByText(`${SHARE_LINK_PASSCODE_ATTEMPTS - 1} attempts left.`),
  ).toBeVisible();
  // The field is where the next try goes.
  await expect(viewer.getByLabel('Passcode')).toBeFocused();
  await viewer.getByLabel('Passcode').fill('2468');
  await viewer.getByRole('button', { name: 'Open' }).click();
  await expect(viewer.getByRole('heading', { name: 'Leo Garcia' })).toBeVisible();
  await expect(viewer.getByRole('heading', { name: 'Allergies' })).toBeVisible();
  await expect(viewer.getByText('Penicillin')).toBeVisible();
  await expect(viewer.getByText('Amoxicillin')).toBeVisible();
  // As the PDF has it: how often, and when in the day.
  await expect(viewer.getByText(/^250 mg · Twice Daily · Morning, Evening · /)).toBeVisible();
  // A severe allergy stands out by an icon and a word, not by colour alone.
  const severe = viewer
    .getByRole('region', { name: 'Allergies' })
    .locator('strong', { hasText: 'Severe' });
  await expect(severe).toBeVisible();
  await expect(severe.locator('svg')).toBeVisible();
  // The insurer heads its policy, under Insurance, not under the care team.
  const insurance = viewer.getByRole('region', { name: 'Insurance' });
  await expect(insurance.getByText('Acme Health')).toBeVisible();
  await expect(insurance.getByText('Policy P-100')).toBeVisible();
  await expect(
    viewer.getByRole('region', { name: 'Care Team' }).getByText('Acme Health'),
  ).toBeHidden();
  const immunizations = viewer.getByRole('region', { name: 'Immunizations' });
  await expect(immunizations.getByText('DTaP dose 2')).toBeVisible();
  await expect(immunizations).not.toContainText('Due');
  await expect(viewer.getByRole('button', { name: 'Download FHIR JSON' })).toBeVisible();
  await expectAccessible(viewer);
  await viewer.screenshot({ path: test.info().outputPath('viewer.png'), fullPage: true });

  // The owner sees the link, revokes it.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Active Share Links' })).toBeVisible();
  await expect(page.getByText('1 time')).toBeVisible();
  await page.getByRole('heading', { name: 'Active Share Links' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('active-links.png') });
  await page.getByRole('button', { name: 'Revoke link for Leo Garcia' }).click();
  const confirm = page.getByRole('alertdialog');
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('Revoked', { exact: true })).toBeVisible();

  await viewer.reload();
  await openAsDrChen(viewer, '2468');
  await expect(viewer.getByText('This link is no longer available')).toBeVisible();
  await stranger.close();

  await page.getByRole('button', { name: 'Access Log' }).click();
  const log = page.getByRole('dialog', { name: 'Access Log' });
  await expect(log.getByText('Dr. Chen')).toHaveCount(3);
  await expect(log.getByText('Wrong passcode')).toBeVisible();
  await expect(log.getByText('Opened')).toBeVisible();
  await expect(log.getByText('Refused')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('access-log.png') });
});

test(
  'Share via Email and Share via Message hand the link over',
  { tag: '@layout' },
  async ({ page, user }) => {
    void user;
    await page.goto('/share');
    await page.getByRole('button', { name: 'Share via Email', exact: true }).click();
    let dialog = page.getByRole('dialog', { name: 'Share via Email' });
    await dialog.getByRole('button', { name: 'Create Link' }).click();
    const email = dialog.getByRole('link', { name: 'Open Email' });
    await expect(email).toHaveAttribute('href', /^mailto:\?subject=.*&body=.*shlink%3A%2F/);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Share via Message', exact: true }).click();
    dialog = page.getByRole('dialog', { name: 'Share via Message' });
    await dialog.getByRole('button', { name: 'Create Link' }).click();
    await expect(dialog.getByRole('link', { name: 'Open Messages' })).toHaveAttribute(
      'href',
      /^sms:.*body=.*shlink%3A%2F/,
    );
    await page.keyboard.press('Escape');
    await expect(page.getByRole('button', { name: /Revoke link for/ })).toHaveCount(2);
  },
);

test('a link locks after its last wrong passcode, and says so at once', async ({
  page,
  user,
  browser,
}) => {
  void user;
  await page.goto('/share');
  await page.getByRole('button', { name: 'Generate Share Link', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Generate Share Link' });
  await dialog.getByLabel('Link Passcode').fill('2468');
  await dialog.getByRole('button', { name: 'Create Link' }).click();
  const link = await dialog.getByLabel('Share Link').inputValue();

  const stranger = await browser.newContext();
  const viewer = await stranger.newPage();
  await viewer.goto(link);
  for (let left = SHARE_LINK_PASSCODE_ATTEMPTS - 1; left >= 1; left--) {
    await viewer.getByLabel('Passcode').fill('0000');
    await viewer.getByRole('button', { name: 'Open' }).click();
    await expect(viewer.getByText(`${left} attempt${left === 1 ? '' : 's'} left.`)).toBeVisible();
  }
  await viewer.getByLabel('Passcode').fill('0000');
  await viewer.getByRole('button', { name: 'Open' }).click();
  await expect(viewer.getByText('This link is no longer available')).toBeVisible();
  await expect(viewer.getByLabel('Passcode')).toBeHidden();

  // Another link pasted into the same tab (only the fragment changes) is opened.
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Generate Share Link', exact: true }).click();
  const again = page.getByRole('dialog', { name: 'Generate Share Link' });
  await again.getByRole('button', { name: 'Create Link' }).click();
  const open = await again.getByLabel('Share Link').inputValue();
  await viewer.evaluate((hash) => (window.location.hash = hash), new URL(open).hash);
  await expect(viewer.getByRole('button', { name: 'Download FHIR JSON' })).toBeVisible();
  await stranger.close();
});

test('the owner sees a link someone they share a child with made, reads its log and revokes it', async ({
  page,
  user,
  browser,
}) => {
  void user;
  const leo = await leoWithAnAllergy(page);
  // Leo shared with Grace, who may share him on.
  const grace = await secondAccount(browser, test.info().project.use.baseURL ?? '');
  await shareViaApi(page, grace.page, {
    personId: leo.id,
    email: grace.user.email,
    role: 'viewer',
    allowExport: true,
  });

  // Grace makes a link of Leo; a doctor opens it.
  await grace.page.goto('/share');
  await grace.page.getByRole('button', { name: 'Generate Share Link', exact: true }).click();
  const dialog = grace.page.getByRole('dialog', { name: 'Generate Share Link' });
  await dialog.getByLabel('Person').selectOption({ label: 'Leo Garcia (shared by Ann Lee)' });
  await dialog.getByLabel('Link Passcode').fill('2468');
  await dialog.getByRole('button', { name: 'Create Link' }).click();
  const link = await dialog.getByLabel('Share Link').inputValue();
  const stranger = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const viewer = await stranger.newPage();
  await viewer.goto(link);
  await openAsDrChen(viewer, '2468');
  await expect(viewer.getByText('Penicillin')).toBeVisible();

  // The owner's list has it, saying who made it.
  await page.goto('/share');
  const card = page.getByRole('listitem').filter({ hasText: 'Made by Grace Kim' });
  await expect(card).toContainText('Leo Garcia');
  await expect(card).toContainText('1 time');
  await card.scrollIntoViewIfNeeded();
  await expectAccessible(page);
  await page.screenshot({ path: test.info().outputPath('grantee-link.png') });
  await card.getByRole('button', { name: 'Access Log' }).click();
  const log = page.getByRole('dialog', { name: 'Access Log' });
  await expect(log.getByText('Dr. Chen')).toBeVisible();
  await expect(log.getByText('Opened')).toBeVisible();
  await page.keyboard.press('Escape');

  await card.getByRole('button', { name: 'Revoke link for Leo Garcia' }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('The link Grace Kim made for Leo Garcia');
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await expect(card.getByText('Revoked', { exact: true })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('grantee-link-revoked.png') });

  // It no longer opens, and Grace's own list says so.
  await viewer.reload();
  await openAsDrChen(viewer, '2468');
  await expect(viewer.getByText('This link is no longer available')).toBeVisible();
  await stranger.close();
  await grace.page.goto('/share');
  await expect(
    grace.page
      .getByRole('listitem')
      .filter({ hasText: 'Leo' })
      .getByText('Revoked', { exact: true }),
  ).toBeVisible();
  await grace.close();
});
