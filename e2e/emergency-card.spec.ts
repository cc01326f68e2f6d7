/**
 * The emergency card (CONTRACT.md §6): from /profiles, a person's 'Emergency Card' shows their
 * current essentials with a QR code of a share link of only those; the link is on the Share
 * screen and revoked there; 'Save as image' downloads a lock-screen PNG; the card prints on one
 * page; and, once opened, it opens with no network (the service worker keeps it).
 */
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { EMERGENCY_CARD_QR_NAME, LOCK_SCREEN_SIZE } from '../src/shared/emergency-card';
import { SERVICE_WORKER_IN_TESTS_KEY } from '../src/web/service-worker/register';
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

/** Leo, with what his card shows and what it leaves out. */
async function leoWithRecords(page: Page) {
  const leo = await addMemberViaApi(page, { name: 'Leo Garcia', date_of_birth: '2017-04-12' });
  const his = { family_member_id: leo.id };
  await createRecordViaApi(page, 'allergies', {
    substance: 'Peanuts',
    reaction: 'Anaphylaxis',
    severity: 'Severe',
    ...his,
  });
  await createRecordViaApi(page, 'medications', {
    medication_name: 'Albuterol',
    dosage: '2 puffs',
    frequency: 'Twice Daily',
    time_morning: true,
    time_night: true,
    ...his,
  });
  await createRecordViaApi(page, 'medications', {
    medication_name: 'Cefdinir',
    dosage: '250 mg',
    start_date: localDay(-30),
    end_date: localDay(-20),
    ...his,
  });
  await createRecordViaApi(page, 'history', {
    condition_name: 'Asthma',
    status: 'Chronic',
    ...his,
  });
  await createRecordViaApi(page, 'insurance', {
    provider_name: 'KidsCare',
    insurance_type: 'Medical',
    policy_number: 'KC-4711',
    ...his,
  });
  await createRecordViaApi(page, 'contacts', {
    contact_name: 'Dr. Amara Okafor',
    contact_type: 'Doctor',
    phone_number: '+1 555 0199',
    person_ids: [leo.id],
  });
  return leo;
}

/** A PNG's width and height, from its IHDR chunk. */
function pngSize(bytes: Buffer) {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

test('the card shows the essentials with its QR code, prints, saves as an image, and its link is revoked on the Share screen', async ({
  page,
  user,
  browser,
}) => {
  void user;
  const leo = await leoWithRecords(page);
  await page.goto('/profiles');
  await expect(page.getByRole('link', { name: 'Emergency Card', exact: true })).toHaveCount(2);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: test.info().outputPath('profiles-wide.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: test.info().outputPath('profiles.png') });
  const leoCard = page.getByRole('listitem').filter({ hasText: 'Leo Garcia' });
  await leoCard.getByRole('link', { name: 'Emergency Card', exact: true }).click();
  await expect(page).toHaveURL(/\/emergency-card\/[^/]+$/);

  await expect(page.getByRole('heading', { name: 'Leo Garcia' })).toBeVisible();
  await expect(page.getByText('Born Apr 12, 2017')).toBeVisible();
  const allergies = page.getByRole('region', { name: 'Allergies' });
  await expect(allergies.getByText('Peanuts')).toBeVisible();
  await expect(allergies.getByText('Severe')).toBeVisible();
  await expect(allergies.getByText('Anaphylaxis')).toBeVisible();
  const medications = page.getByRole('region', { name: 'Current Medications' });
  await expect(medications.getByText('Albuterol')).toBeVisible();
  await expect(medications.getByText('2 puffs · Twice Daily · Morning, Night')).toBeVisible();
  await expect(medications.getByText('Cefdinir')).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Conditions' }).getByText('Asthma')).toBeVisible();
  const contacts = page.getByRole('region', { name: 'Emergency Contacts' });
  await expect(contacts.getByText('Dr. Amara Okafor')).toBeVisible();
  await expect(contacts.getByRole('link', { name: '+1 555 0199' })).toHaveAttribute(
    'href',
    'tel:+15550199',
  );
  await expect(page.getByRole('region', { name: 'Insurance' }).getByText('KidsCare')).toBeVisible();
  const qr = page.getByRole('img', { name: EMERGENCY_CARD_QR_NAME });
  await expect(qr).toBeVisible();
  await expect(page.getByRole('button', { name: 'Print' })).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: test.info().outputPath('emergency-card.png'), fullPage: true });

  // On paper: the card alone, without the buttons, on one page.
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
  await expect(qr).toBeVisible();
  await page.screenshot({
    path: test.info().outputPath('emergency-card-print.png'),
    fullPage: true,
  });
  const pdf = await page.pdf({ format: 'A4' });
  expect(pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g)).toHaveLength(1);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: test.info().outputPath('emergency-card-print-wide.png') });
  await page.emulateMedia({ media: 'screen' });
  await page.screenshot({ path: test.info().outputPath('emergency-card-wide.png') });
  await page.setViewportSize({ width: 390, height: 844 });

  // The lock-screen image: a portrait PNG at the phone's full size.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Save as image' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(
    /^kin-health-emergency-card-leo-garcia-\d{4}-\d{2}-\d{2}\.png$/,
  );
  const image = test.info().outputPath('lock-screen.png');
  await download.saveAs(image);
  expect(pngSize(await readFile(image))).toEqual(LOCK_SCREEN_SIZE);

  // Opened again: the same QR code, not a second link.
  const source = await qr.getAttribute('src');
  await page.reload();
  await expect(qr).toHaveAttribute('src', source ?? '');

  // The link holds the card and nothing more: opened with no account (and no passcode: it is
  // for an emergency), no ended medication.
  const link = await page.evaluate(async (personId) => {
    const kept = await caches.match(`/emergency-card-link/${personId}`);
    return ((await kept?.json()) as { link: string } | undefined)?.link ?? '';
  }, leo.id);
  expect(link).toMatch(/\/shl#shlink:\//);
  const stranger = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const viewer = await stranger.newPage();
  await viewer.goto(link);
  await expect(viewer.getByRole('heading', { name: 'Leo Garcia' })).toBeVisible();
  await expect(viewer.getByText('Peanuts')).toBeVisible();
  await expect(viewer.getByText('Albuterol')).toBeVisible();
  await expect(viewer.getByText('KidsCare')).toBeVisible();
  await expect(viewer.getByText('Cefdinir')).toHaveCount(0);
  await stranger.close();

  // The Share screen lists the card's link, and revokes it.
  await page.goto('/share');
  await expect(page.getByText('Emergency card', { exact: true })).toHaveCount(1);
  await page.screenshot({ path: test.info().outputPath('share-screen.png') });
  await page.getByRole('button', { name: 'Revoke link for Leo Garcia' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('Revoked', { exact: true })).toBeVisible();

  // The card says its code no longer opens, and makes a new one when asked.
  await page.goBack();
  await expect(page.getByText('was revoked or has expired')).toBeVisible();
  await expect(qr).toHaveCount(0);
  await page.getByRole('button', { name: 'Create New QR Code' }).click();
  await expect(qr).toBeVisible();
  expect(await qr.getAttribute('src')).not.toBe(source);
});

test('once opened, the card opens with no network', async ({ page, context, user }) => {
  void user;
  await context.addInitScript(
    (key) => localStorage.setItem(key, 'on'),
    SERVICE_WORKER_IN_TESTS_KEY,
  );
  const leo = await leoWithRecords(page);
  await page.goto(`/emergency-card/${leo.id}`);
  await page.evaluate(() => navigator.serviceWorker.ready);
  // Now the worker answers the page: the card passes through it and is kept.
  await page.reload();
  await expect(page.getByRole('img', { name: EMERGENCY_CARD_QR_NAME })).toBeVisible();
  expect(await page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Leo Garcia' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Allergies' }).getByText('Peanuts')).toBeVisible();
  await expect(page.getByRole('img', { name: EMERGENCY_CARD_QR_NAME })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('emergency-card-offline.png') });
  await context.setOffline(false);

  // Signed out, nothing of the card is left on the device.
  await page.goto('/profile-settings');
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  expect(await page.evaluate(() => caches.keys())).toEqual([expect.stringMatching(/^kin-shell-/)]);
  // And without a session the card's page sends the visitor to sign in.
  await page.goto(`/emergency-card/${leo.id}`);
  await expect(page).toHaveURL(/\/auth$/);
});

test('a Viewer of a shared person sees the card, and only one who may share makes its QR code', async ({
  page,
  user,
  browser,
}) => {
  void user;
  const leo = await leoWithRecords(page);
  const grace = await secondAccount(browser, test.info().project.use.baseURL ?? '');
  await shareViaApi(page, grace.page, {
    personId: leo.id,
    email: grace.user.email,
    role: 'viewer',
  });
  await grace.page.goto('/profiles');
  await grace.page
    .getByRole('region', { name: 'Shared with you' })
    .getByRole('link', { name: 'Emergency Card', exact: true })
    .click();
  await expect(grace.page.getByRole('heading', { name: 'Leo Garcia' })).toBeVisible();
  await expect(
    grace.page.getByRole('region', { name: 'Allergies' }).getByText('Peanuts'),
  ).toBeVisible();
  await expect(
    grace.page.getByText(
      "Only someone who may share Leo Garcia's records can make the card's QR code.",
    ),
  ).toBeVisible();
  await expect(grace.page.getByRole('img', { name: EMERGENCY_CARD_QR_NAME })).toHaveCount(0);
  await expectAccessible(grace.page);
  await grace.close();
});
