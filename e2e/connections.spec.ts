/**
 * Patient portals, end to end (CONTRACT §6 'Connections', issue 51): on the server that
 * offers 'Riverside Health' (e2e/portal.ts), a family member is connected through the test
 * SMART server's sign-in, the first sync brings her records in (each saying where it came
 * from), 'Sync Now' finds nothing new, and 'Disconnect' forgets the connection while the
 * records stay. A refused return is said in words in the section.
 */
import type { Page } from '@playwright/test';
import { expect, expectAccessible, PASSCODE, test, uniqueEmail } from './fixtures';
import {
  connectionsOrigin,
  NEW_LAB_RESULT,
  newLabResultAtPortal,
  PORTAL_NAME,
  PORTAL_USERNAME,
} from './portal';
import { MIA_BIRTH_DATE } from '../src/server/test/smart-portal-records';
import { onPhoneOnly } from './single-sign-on';

const PORTAL = PORTAL_NAME;

/** A fresh account on the portal-offering server, signed in in this browser, with Mia. */
async function signUpWithMia(page: Page, origin: string) {
  const headers = { origin };
  const signedUp = await page.request.post(`${origin}/api/auth/sign-up/email`, {
    data: {
      name: 'Ann Lee',
      email: uniqueEmail('portal'),
      password: 'secret-password',
      passcode: PASSCODE,
    },
    headers,
  });
  expect(signedUp.status(), await signedUp.text()).toBe(200);
  const added = await page.request.post(`${origin}/api/family-members`, {
    data: { name: 'Mia', date_of_birth: MIA_BIRTH_DATE, sex: 'female' },
    headers,
  });
  expect(added.status(), await added.text()).toBe(201);
}

/** Mia's first record on the conditions list, opened on its own page. */
async function openMiasCondition(page: Page, origin: string) {
  await page.goto(`${origin}/history`);
  const record = page.getByRole('link', { name: /Mia/ }).first();
  await expect(record).toBeVisible();
  await record.click();
}

test.describe('patient portal connections', () => {
  onPhoneOnly();

  test('connects Mia to Riverside Health, syncs her records in, and disconnects keeping them', async ({
    page,
  }) => {
    const origin = connectionsOrigin();
    await signUpWithMia(page, origin);

    await page.goto(`${origin}/profile-settings`);
    const section = page.getByRole('region', { name: 'Connections' });
    await expect(section.getByText('No connections yet.')).toBeVisible();
    await section.getByRole('button', { name: 'Connect a Patient Portal' }).click();
    const dialog = page.getByRole('dialog', { name: 'Connect a Patient Portal' });
    await dialog.getByLabel('Health System').selectOption({ label: PORTAL });
    await dialog.getByLabel('Person').selectOption({ label: 'Mia' });
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Connect', exact: true }).click();

    // The portal's own sign-in page.
    await page.getByLabel('Username').fill(PORTAL_USERNAME);
    await page.getByRole('button', { name: 'Sign in' }).click();

    // Back on Profile Settings: the address is clean again, and the first sync runs.
    await expect(page).toHaveURL(`${origin}/profile-settings`);
    await expect(page.getByText(`Connected to ${PORTAL}`)).toBeVisible();
    const item = section.getByRole('listitem', { name: `${PORTAL} for Mia` });
    await expect(item).toBeVisible();
    await expect(item.getByText(/^Last synced /)).toBeVisible({ timeout: 60_000 });
    await expect(item.getByText(/^Imported \d+ records?$/)).toBeVisible();
    await expectAccessible(page);
    await page.screenshot({ path: test.info().outputPath('connections-list.png'), fullPage: true });

    // Her records came in, each saying where from.
    await openMiasCondition(page, origin);
    await expect(page.getByText(new RegExp(`^Imported from ${PORTAL} on `))).toBeVisible();

    // Again: nothing new.
    await page.goto(`${origin}/profile-settings`);
    await item.getByRole('button', { name: 'Sync Now' }).click();
    await expect(item.getByText('Nothing new')).toBeVisible({ timeout: 60_000 });
    await expect(item.getByRole('button', { name: 'Sync Now' })).toBeEnabled();

    // A new lab result at the portal arrives on the next sync.
    expect((await newLabResultAtPortal()).status).toBe(201);
    await item.getByRole('button', { name: 'Sync Now' }).click();
    await expect(item.getByText('Imported 1 record')).toBeVisible({ timeout: 60_000 });
    await page.goto(`${origin}/labs`);
    await expect(page.getByRole('link', { name: NEW_LAB_RESULT }).first()).toBeVisible();

    // Disconnected, the records stay.
    await page.goto(`${origin}/profile-settings`);
    await item.getByRole('button', { name: 'Disconnect' }).click();
    const confirm = page.getByRole('alertdialog', { name: `Disconnect ${PORTAL} for Mia?` });
    await expect(confirm).toContainText(
      `Kin Health stops syncing from ${PORTAL}. The records already brought in stay.`,
    );
    await expectAccessible(page);
    await confirm.getByRole('button', { name: 'Disconnect' }).click();
    await expect(item).toHaveCount(0);
    await expect(section.getByText('No connections yet.')).toBeVisible();
    await openMiasCondition(page, origin);
    await expect(page.getByText(new RegExp(`^Imported from ${PORTAL} on `))).toBeVisible();
  });

  test('says a refused return in the Connections section, and leaves the address', async ({
    page,
  }) => {
    const origin = connectionsOrigin();
    await signUpWithMia(page, origin);
    const sentence = `${PORTAL} refused: the sign-in was cancelled`;
    await page.goto(`${origin}/profile-settings?connection_error=${encodeURIComponent(sentence)}`);
    await expect(page.getByRole('region', { name: 'Connections' }).getByRole('alert')).toHaveText(
      sentence,
    );
    await expect(page).toHaveURL(`${origin}/profile-settings`);
  });
});
