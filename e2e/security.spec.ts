import { readFileSync } from 'node:fs';
import {
  enableTwoFactorViaApi,
  expect,
  expectAccessible,
  PASSCODE,
  signInWithForm,
  test,
  totpCode,
} from './fixtures';

test.describe('two-factor sign-in', () => {
  test('is turned on in the settings, then sign-in asks for the code', async ({ page, user }) => {
    await page.goto('/profile-settings');
    const section = page.getByRole('region', { name: 'Two-factor sign-in' });
    await expect(section.getByText(/^Off\./)).toBeVisible();
    await expectAccessible(page);

    await section.getByRole('button', { name: 'Turn On' }).click();
    const dialog = page.getByRole('dialog', { name: 'Turn on two-factor sign-in' });
    await dialog.getByLabel('Password').fill('not-my-password');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByText('Invalid password')).toBeVisible();
    await dialog.getByLabel('Password').fill(user.password);
    await dialog.getByRole('button', { name: 'Continue' }).click();

    const setup = page.getByRole('dialog', { name: 'Set up your authenticator app' });
    await expect(
      setup.getByRole('img', { name: 'QR code to scan with your authenticator app' }),
    ).toBeVisible();
    await expect(setup.getByRole('img')).toHaveAttribute('src', /^data:image\/png;base64,/);
    const setupKey = await setup.getByLabel('Setup key').inputValue();
    // On a phone, which cannot scan its own screen: the key to copy, the app to open.
    await expect(setup.getByRole('button', { name: 'Copy Key' })).toBeVisible();
    await expect(setup.getByRole('link', { name: 'Open in Authenticator App' })).toHaveAttribute(
      'href',
      /^otpauth:\/\/totp\/.*secret=/,
    );
    expect(setupKey.replace(/\s/g, '')).toMatch(/^[A-Z2-7]{16,}$/);
    await expectAccessible(page);

    await setup.getByLabel('Authentication Code').fill('000000');
    await setup.getByRole('button', { name: 'Verify and Turn On' }).click();
    await expect(page.getByText('Invalid code')).toBeVisible();
    await setup.getByLabel('Authentication Code').fill(await totpCode(setupKey));
    await setup.getByRole('button', { name: 'Verify and Turn On' }).click();

    const saved = page.getByRole('dialog', { name: 'Save your backup codes' });
    const codes = saved.getByRole('list', { name: 'Backup codes' }).getByRole('listitem');
    await expect(codes).toHaveCount(10);
    const shown = await codes.allTextContents();
    // No look-alike characters: 0/O, 1/l/I.
    for (const shownCode of shown) expect(shownCode).not.toMatch(/[0O1lI]/);
    await expectAccessible(page);
    // Beside them: a file to keep, and a page to print.
    const download = page.waitForEvent('download');
    await saved.getByRole('button', { name: 'Download Codes' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('kin-health-backup-codes.txt');
    const text = readFileSync((await file.path()) ?? '', 'utf8');
    for (const shownCode of shown) expect(text).toContain(shownCode);
    const popup = page.waitForEvent('popup');
    await saved.getByRole('button', { name: 'Print Codes' }).click();
    const printed = await popup;
    await expect(printed.getByRole('heading', { name: 'Kin Health backup codes' })).toBeVisible();
    for (const shownCode of shown) await expect(printed.getByText(shownCode)).toBeVisible();
    await printed.close();
    await saved.getByRole('button', { name: 'Done' }).click();
    await expect(saved).toBeHidden();

    const factor = section.getByRole('list', { name: 'Second factors' }).getByRole('listitem');
    await expect(factor).toContainText('Authenticator app');
    await expect(factor).toContainText(/totp/i);
    await expect(factor).toContainText(/verified/i);
    await expect(section.getByText(/^On\./)).toBeVisible();

    await page.getByRole('button', { name: 'Sign Out', exact: true }).click();
    await expect(page).toHaveURL(/\/auth$/);

    await signInWithForm(page, user);
    const code = page.getByLabel('Authentication Code');
    await expect(code).toBeVisible();
    await expect(code).toBeFocused();
    await expect(page).toHaveURL(/\/auth$/);
    await expectAccessible(page);
    // No session yet: another tab still lands on /auth.
    const other = await page.context().newPage();
    await other.goto('/');
    await expect(other).toHaveURL(/\/auth$/);
    await other.close();

    await code.fill('000000');
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await expect(page.getByText('Invalid code')).toBeVisible();
    await expect(code).toHaveValue('');
    await code.fill(await totpCode(setupKey));
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Welcome, Ann!' })).toBeVisible();
  });

  test('takes a backup code instead, once', async ({ page, user }) => {
    const { backupCodes } = await enableTwoFactorViaApi(page, user.password);
    await page.context().clearCookies();

    await signInWithForm(page, user);
    await page.getByRole('button', { name: 'Use a backup code instead' }).click();
    await page.getByLabel('Backup Code').fill(backupCodes[0] ?? '');
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Welcome, Ann!' })).toBeVisible();

    await page.getByRole('button', { name: 'Account' }).click();
    await page
      .getByRole('dialog', { name: 'Account' })
      .getByRole('button', { name: 'Logout' })
      .click();
    await expect(page).toHaveURL(/\/auth$/);

    await signInWithForm(page, user);
    await page.getByRole('button', { name: 'Use a backup code instead' }).click();
    await page.getByLabel('Backup Code').fill(backupCodes[0] ?? '');
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await expect(page.getByText('Invalid backup code')).toBeVisible();
    await expect(page).toHaveURL(/\/auth$/);
  });

  test('still checks the passcode before asking for a code', async ({ page, user }) => {
    await enableTwoFactorViaApi(page, user.password);
    await page.context().clearCookies();
    await signInWithForm(page, user, '999999');
    await expect(page.getByText('Invalid Friends & Family Passcode')).toBeVisible();
    await expect(page.getByLabel('Authentication Code')).toHaveCount(0);
    await page.getByLabel('Friends & Family Passcode').fill(PASSCODE);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByLabel('Authentication Code')).toBeVisible();
  });

  test('refuses a code already used, and keeps the challenge open', async ({ page, user }) => {
    const { setupKey, confirmedWith } = await enableTwoFactorViaApi(page, user.password);
    await page.context().clearCookies();
    await signInWithForm(page, user);
    const code = page.getByLabel('Authentication Code');
    await code.fill(confirmedWith);
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await expect(
      page.getByText(
        'This code has already been used. Wait for the next code in your authenticator app.',
      ),
    ).toBeVisible();
    await expect(code).toHaveValue('');
    await code.fill(await totpCode(setupKey));
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  });

  test('is turned off with the password', async ({ page, user }) => {
    await enableTwoFactorViaApi(page, user.password);
    await page.goto('/profile-settings');
    const section = page.getByRole('region', { name: 'Two-factor sign-in' });
    await section.getByRole('button', { name: 'Turn Off' }).click();
    const dialog = page.getByRole('dialog', { name: 'Turn off two-factor sign-in' });
    await expectAccessible(page);
    await dialog.getByLabel('Password').fill('wrong-password');
    await dialog.getByRole('button', { name: 'Turn Off' }).click();
    await expect(page.getByText('Invalid password')).toBeVisible();
    await dialog.getByLabel('Password').fill(user.password);
    await dialog.getByRole('button', { name: 'Turn Off' }).click();
    await expect(page.getByText('Two-factor sign-in is off')).toBeVisible();
    await expect(section.getByRole('button', { name: 'Turn On' })).toBeVisible();

    await page.context().clearCookies();
    await signInWithForm(page, user);
    await expect(page.getByRole('heading', { name: 'Welcome, Ann!' })).toBeVisible();
  });
});

test('with two-factor on, deleting the account asks for a code as well', async ({ page, user }) => {
  const { setupKey } = await enableTwoFactorViaApi(page, user.password);
  await page.goto('/');
  await page.getByRole('button', { name: 'Account', exact: true }).click();
  await page.getByRole('button', { name: 'Delete Account' }).click();
  const proof = page.getByRole('alertdialog');
  await proof.getByLabel('Password').fill(user.password);
  await proof.getByRole('button', { name: /^Delete/ }).click();
  await expect(proof.getByText('Authentication Code is required')).toBeVisible();
  await expectAccessible(page);
  await proof.getByLabel('Authentication Code').fill(await totpCode(setupKey));
  await proof.getByRole('button', { name: /^Delete/ }).click();
  await expect(page.getByText('Your account has been permanently deleted.')).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);
});

test.describe('active sessions', () => {
  test('lists this and other devices, and signs the others out', async ({
    page,
    user,
    browser,
    baseURL,
  }) => {
    const devices = [];
    for (const userAgent of [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
    ]) {
      const context = await browser.newContext({ userAgent, baseURL });
      const response = await context.request.post('/api/auth/sign-in/email', {
        data: { email: user.email, password: user.password, passcode: PASSCODE },
        headers: { origin: baseURL ?? '' },
      });
      expect(response.status()).toBe(200);
      devices.push(context);
    }
    const [laptop, phone] = devices;

    await page.goto('/profile-settings');
    const list = page.getByRole('list', { name: 'Active sessions' });
    await expect(list.getByRole('listitem')).toHaveCount(3);
    const current = list.getByRole('listitem').filter({ hasText: 'This device' });
    await expect(current).toHaveCount(1);
    await expect(current).toContainText('Chrome');
    await expect(current.getByRole('button')).toHaveCount(0);
    const firefox = list.getByRole('listitem').filter({ hasText: 'Firefox on Windows' });
    await expect(firefox).toContainText('IP address');
    await expect(firefox).toContainText('Signed in');
    await expect(firefox).toContainText('Last active');
    await expectAccessible(page);

    await firefox.getByRole('button', { name: /^End session/i }).click();
    await expect(page.getByText('Firefox on Windows is signed out.')).toBeVisible();
    await expect(list.getByRole('listitem')).toHaveCount(2);
    expect((await laptop?.request.get('/api/profile'))?.status()).toBe(401);
    expect((await phone?.request.get('/api/profile'))?.status()).toBe(200);

    await page.getByRole('button', { name: 'End All Other Sessions' }).click();
    await expect(page.getByText('Every other device is signed out.')).toBeVisible();
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await expect(page.getByText('No other device is signed in.')).toBeVisible();
    expect((await phone?.request.get('/api/profile'))?.status()).toBe(401);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Profile Settings' })).toBeVisible();

    const activity = page.getByRole('list', { name: 'Recent security activity' });
    await expect(activity.getByText('Another session signed out')).toHaveCount(2);
    for (const context of devices) await context.close();
  });

  test('recent security activity shows a failed sign-in on the account', async ({
    page,
    user,
    playwright,
    baseURL,
  }) => {
    const stranger = await playwright.request.newContext({ baseURL });
    await stranger.post('/api/auth/sign-in/email', {
      data: { email: user.email, password: 'guessing-wrong', passcode: PASSCODE },
      headers: { origin: baseURL ?? '' },
    });
    await stranger.dispose();

    await page.goto('/profile-settings');
    const activity = page.getByRole('list', { name: 'Recent security activity' });
    const rows = activity.getByRole('listitem');
    await expect(rows.first()).toContainText('Sign-in failed');
    await expect(rows.first()).toContainText('Wrong email or password');
    await expect(rows.last()).toContainText('Account created');
    await expect(activity).not.toContainText('guessing-wrong');
  });
});
