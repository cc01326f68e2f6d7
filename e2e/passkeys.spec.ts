/**
 * Passkeys (issue #39, CONTRACT.md §5 'Passkeys and single sign-on') in Chromium with a
 * virtual authenticator (the DevTools Protocol's WebAuthn domain): an account made with a
 * password and the passcode, and two-factor sign-in on, adds a passkey after its password
 * and a code (decision 0048), signs out, signs in with the passkey alone (no password,
 * passcode or code), removes it after the password and a code, and the removed passkey no
 * longer signs in. 'Sign out everywhere and remove passkeys' ends this session and every
 * passkey.
 */
import type { Page, Request } from '@playwright/test';
import { addVirtualAuthenticator } from './passkey-authenticator';
import {
  enableTwoFactorViaApi,
  expect,
  expectAccessible,
  PASSCODE,
  test,
  uniqueEmail,
} from './fixtures';

async function signOut(page: Page) {
  await page.goto('/profile-settings');
  await page.getByRole('button', { name: 'Sign Out', exact: true }).click();
  await expect(page).toHaveURL(/\/auth$/);
}

test('a passkey is added, signs in alone, is removed, and then no longer signs in', async ({
  page,
}) => {
  const authenticator = await addVirtualAuthenticator(page);
  const email = uniqueEmail('passkey');
  const password = 'secret-password';

  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await page.getByLabel('Full Name').fill('Ann Lee');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Friends & Family Passcode').fill(PASSCODE);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome, Ann!' })).toBeVisible();
  const { backupCodes } = await enableTwoFactorViaApi(page, password);

  // Added after the password and a code (a copied session is not enough), named by the
  // device; renamed.
  await page.goto('/profile-settings');
  const section = page.getByRole('region', { name: 'Passkeys' });
  await expect(section.getByText('No passkeys yet.')).toBeVisible();
  await section.getByRole('button', { name: 'Add Passkey' }).click();
  const adding = page.getByRole('alertdialog', { name: 'Add a passkey?' });
  await adding.getByLabel('Password').fill('not-my-password');
  await adding.getByLabel('Authentication Code').fill(backupCodes[1] ?? '');
  await adding.getByRole('button', { name: 'Continue' }).click();
  await expect(adding.getByText('The password is not correct')).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('add-passkey-asks-password.png') });
  expect(await authenticator.credentials()).toHaveLength(0);
  await adding.getByLabel('Password').fill(password);
  await adding.getByRole('button', { name: 'Continue' }).click();
  await expect(adding).toHaveCount(0);
  const list = section.getByRole('list', { name: 'Passkeys' });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list.getByText(/^Chrome on /)).toBeVisible();
  await expect(list.getByText('Not yet')).toBeVisible();
  expect(await authenticator.credentials()).toHaveLength(1);
  await list.getByRole('button', { name: /^Rename passkey Chrome on / }).click();
  await list.getByLabel('Passkey Name').fill('Ann’s phone');
  await list.getByRole('button', { name: 'Save Name' }).click();
  await expect(list.getByText('Ann’s phone', { exact: true })).toBeVisible();

  // Signed in with the passkey alone: no password, passcode or authentication code.
  await signOut(page);
  // The email field offers passkeys among its suggestions (conditional UI).
  await expect(page.getByLabel('Email')).toHaveAttribute('autocomplete', 'username webauthn');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome, Ann!' })).toBeVisible();
  await expect(page.getByLabel('Authentication Code')).toHaveCount(0);

  await page.goto('/profile-settings');
  await expect(list.getByText('Not yet')).toHaveCount(0);
  const activity = page.getByRole('region', { name: 'Recent security activity' });
  await expect(activity.getByText('Passkey added')).toBeVisible();
  await expect(activity.getByText('Signed in · Passkey')).toHaveCount(1);

  // Removed after a fresh proof: the password, and (two-factor sign-in is on) a code.
  await list.getByRole('button', { name: 'Remove passkey Ann’s phone' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Remove passkey Ann’s phone?' });
  await dialog.getByLabel('Password').fill('not-my-password');
  await dialog.getByLabel('Authentication Code').fill(backupCodes[0] ?? '');
  await dialog.getByRole('button', { name: 'Remove Passkey' }).click();
  await expect(dialog.getByText('The password is not correct')).toBeVisible();
  await dialog.getByLabel('Password').fill(password);
  await dialog.getByRole('button', { name: 'Remove Passkey' }).click();
  await expect(section.getByText('No passkeys yet.')).toBeVisible();
  await expect(activity.getByText('Passkey removed')).toBeVisible();

  // The device still holds it; the server no longer takes it.
  await signOut(page);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByText('This passkey is not known here', { exact: false })).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);
});

/**
 * Does what it is given, then waits until the code it made the page load (the app's
 * /assets/ files) has all arrived and nothing more was asked for half a second.
 */
async function untilCodeLoaded(page: Page, action: () => Promise<void>) {
  const pending = new Set<Request>();
  let lastChange = Date.now();
  const isCode = (request: Request) => new URL(request.url()).pathname.startsWith('/assets/');
  const started = (request: Request) => {
    if (!isCode(request)) return;
    pending.add(request);
    lastChange = Date.now();
  };
  const ended = (request: Request) => {
    if (!pending.delete(request)) return;
    lastChange = Date.now();
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  try {
    await action();
    await expect.poll(() => pending.size === 0 && Date.now() - lastChange > 500).toBe(true);
  } finally {
    page.off('request', started);
    page.off('requestfinished', ended);
    page.off('requestfailed', ended);
  }
}

test('where passkeys cannot work, the sign-in form says so only when a passkey is asked for', async ({
  page,
}) => {
  // As over plain http at an address other than localhost: not a secure context, so the
  // browser has no WebAuthn at all. The page notes when the words first appear.
  await page.addInitScript(() => {
    Object.defineProperty(window, 'isSecureContext', { value: false });
    delete (window as { PublicKeyCredential?: unknown }).PublicKeyCredential;
    const seen = window as { passkeyWordsAt?: number };
    new MutationObserver(() => {
      if (
        seen.passkeyWordsAt === undefined &&
        document.body?.textContent?.includes('cannot use passkeys')
      )
        seen.passkeyWordsAt = performance.now();
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await page.goto('/auth');
  const unsupported = page.getByText('This browser cannot use passkeys here', { exact: false });
  const button = page.getByRole('button', { name: 'Sign in with a passkey' });
  await expect(button).toBeVisible();

  // Focusing Email starts the quiet offer of the device's passkeys (conditional UI), with the
  // passkey code and its library: with no passkey possible, it ends without a word.
  await untilCodeLoaded(page, async () => {
    await page.getByLabel('Email').click();
    await page.getByLabel('Email').fill('ann@example.com');
    await page.getByLabel('Password').click();
  });
  await expect(unsupported).toHaveCount(0);

  const asked = await page.evaluate(() => performance.now());
  await button.click();
  await expect(unsupported).toBeVisible();
  const shown = await page.evaluate(() => (window as { passkeyWordsAt?: number }).passkeyWordsAt);
  expect(shown).toBeGreaterThan(asked);
});

test('Sign out everywhere and remove passkeys ends this session and every passkey', async ({
  page,
}) => {
  await addVirtualAuthenticator(page);
  const email = uniqueEmail('everywhere');
  const password = 'secret-password';
  const signedUp = await page.request.post('/api/auth/sign-up/email', {
    data: { name: 'Eve Reyes', email, password, passcode: PASSCODE },
  });
  expect(signedUp.status()).toBe(200);

  await page.goto('/profile-settings');
  const section = page.getByRole('region', { name: 'Passkeys' });
  await section.getByRole('button', { name: 'Add Passkey' }).click();
  const adding = page.getByRole('alertdialog', { name: 'Add a passkey?' });
  await adding.getByLabel('Password').fill(password);
  await adding.getByRole('button', { name: 'Continue' }).click();
  await expect(section.getByRole('list', { name: 'Passkeys' }).getByRole('listitem')).toHaveCount(
    1,
  );

  await expect(
    page.getByRole('heading', { name: 'Sign out everywhere and remove passkeys' }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'End All Sessions and Passkeys' }).click();
  const dialog = page.getByRole('alertdialog', {
    name: 'End every session and remove every passkey?',
  });
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: test.info().outputPath('sign-out-everywhere-dialog.png') });
  await dialog.getByLabel('Password').fill(password);
  await dialog.getByRole('button', { name: 'End All Sessions' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await page.screenshot({ path: test.info().outputPath('signed-out-everywhere.png') });

  // The device still holds its passkey; the server no longer takes it.
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByText('This passkey is not known here', { exact: false })).toBeVisible();
});
