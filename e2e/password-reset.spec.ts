/**
 * Password reset by email, end to end (issue 34): 'Forgot password?' on the Sign In tab, the
 * mail arrives at the test SMTP server (scripts/serve-e2e.ts), its link resets the password
 * without the passcode, the new password signs in and the old one does not, and the other
 * signed-in device is signed out.
 */
import { request as playwrightRequest } from '@playwright/test';
import { expect, expectAccessible, PASSCODE, test, uniqueEmail } from './fixtures';
import { e2ePort as port, mailOrigin as origin, mailTo, useMailServer } from './mailbox';
import { addVirtualAuthenticator } from './passkey-authenticator';

test.describe('by email', () => {
  // One mail-enabled server (SQLite) serves every project: once is enough.
  useMailServer();

  test('Forgot password? sends a link by email that resets the password and signs out every device', async ({
    page,
  }) => {
    const user = { name: 'Grace Hopper', email: uniqueEmail('reset'), password: 'old-password-1' };
    // Signed up, and signed in on another device.
    const otherDevice = await playwrightRequest.newContext({
      baseURL: origin,
      extraHTTPHeaders: { origin },
    });
    const signedUp = await otherDevice.post('/api/auth/sign-up/email', {
      data: { ...user, passcode: PASSCODE },
    });
    expect(signedUp.status(), await signedUp.text()).toBe(200);
    expect((await otherDevice.get('/api/profile')).status()).toBe(200);

    await page.goto('/auth');
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByLabel('Email').fill(user.email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(
      page.getByText('If an account exists for that email, a reset link is on its way.'),
    ).toBeVisible();
    await expectAccessible(page);

    await expect.poll(() => mailTo(port, user.email).length, { timeout: 20_000 }).toBe(1);
    const [mail] = mailTo(port, user.email);
    expect(mail?.subject).toBe('Reset your Kin Health password');
    expect(mail?.from).toContain('kin@example.test');
    const link = /https?:\/\/\S+/.exec(mail?.text ?? '')?.[0] ?? '';
    expect(link.startsWith(`${origin}/reset-password?token=`)).toBe(true);

    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Reset Password' })).toBeVisible();
    await page.getByLabel('New Password').fill('new-password-2');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page.getByText('Password reset. Sign in with your new password.')).toBeVisible();
    await expectAccessible(page);

    // The other device is signed out.
    expect((await otherDevice.get('/api/profile')).status()).toBe(401);
    await otherDevice.dispose();

    // The old password no longer signs in; the new one does.
    await page.getByRole('link', { name: 'Sign In' }).click();
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByLabel('Friends & Family Passcode').fill(PASSCODE);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByText('Invalid email or password')).toBeVisible();
    await page.getByLabel('Password').fill('new-password-2');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Welcome, Grace!' })).toBeVisible();
  });
});

test.describe('by email, with passkeys', () => {
  useMailServer();

  test('the reset page lists the passkeys and removes them with the reset', async ({ page }) => {
    await addVirtualAuthenticator(page);
    const user = {
      name: 'Ida Tarbell',
      email: uniqueEmail('reset-keys'),
      password: 'a-password-1',
    };
    const signedUp = await page.request.post('/api/auth/sign-up/email', {
      data: { ...user, passcode: PASSCODE },
      headers: { origin },
    });
    expect(signedUp.status(), await signedUp.text()).toBe(200);
    await page.goto('/profile-settings');
    const section = page.getByRole('region', { name: 'Passkeys' });
    await section.getByRole('button', { name: 'Add Passkey' }).click();
    const adding = page.getByRole('alertdialog', { name: 'Add a passkey?' });
    await adding.getByLabel('Password').fill(user.password);
    await adding.getByRole('button', { name: 'Continue' }).click();
    await expect(section.getByRole('list', { name: 'Passkeys' }).getByRole('listitem')).toHaveCount(
      1,
    );
    await expect
      .poll(() => mailTo(port, user.email).map((mail) => mail.subject), { timeout: 20_000 })
      .toContain('A passkey was added to your Kin Health account');

    const asked = await page.request.post('/api/auth/request-password-reset', {
      data: { email: user.email },
      headers: { origin },
    });
    expect(asked.status()).toBe(200);
    const resetMail = async () =>
      mailTo(port, user.email).find((mail) => mail.subject === 'Reset your Kin Health password');
    await expect.poll(async () => Boolean(await resetMail()), { timeout: 20_000 }).toBe(true);
    const link = /https?:\/\/\S+/.exec((await resetMail())?.text ?? '')?.[0] ?? '';
    await page.goto(link);
    const choices = page.getByRole('group', { name: 'Passkeys on this account' });
    await expect(choices.getByLabel(/^Remove passkey Chrome on /)).toBeVisible();
    await expectAccessible(page);
    await page.screenshot({ path: test.info().outputPath('reset-passkeys-listed.png') });
    await choices.getByLabel('Remove all passkeys').check();
    await expect(choices.getByLabel(/^Remove passkey Chrome on /)).toBeChecked();
    await page.getByLabel('New Password').fill('new-password-2');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect(
      page.getByText('Password reset. Sign in with your new password. 1 passkey was removed.'),
    ).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('reset-removed-passkeys.png') });

    await page.getByRole('link', { name: 'Sign In' }).click();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page.getByText('This passkey is not known here', { exact: false })).toBeVisible();
  });
});

test.describe('without mail', () => {
  test('Forgot password? says that email is not set up', async ({ page }) => {
    await page.goto('/auth');
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await expect(page.getByText(/Email is not set up on this server/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send Reset Link' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Back to Sign In' }).click();
    await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
  });
});

test.describe('Profile Settings', () => {
  test('changes the password with the current one and signs the other devices out', async ({
    page,
    user,
  }) => {
    const base = test.info().project.use.baseURL ?? '';
    const otherDevice = await playwrightRequest.newContext({
      baseURL: base,
      extraHTTPHeaders: { origin: base },
    });
    const signedIn = await otherDevice.post('/api/auth/sign-in/email', {
      data: { email: user.email, password: user.password, passcode: PASSCODE },
    });
    expect(signedIn.status(), await signedIn.text()).toBe(200);

    await page.goto('/profile-settings');
    const section = page.getByRole('form', { name: 'Password' });
    await section.getByLabel('Current Password').fill(user.password);
    await section.getByLabel('New Password').fill('changed-password-3');
    await section.getByRole('button', { name: 'Change Password' }).click();
    await expect(
      page.getByText('Password changed. Your other devices are signed out.'),
    ).toBeVisible();
    await expect(section.getByLabel('Current Password')).toHaveValue('');
    await expectAccessible(page);

    expect((await otherDevice.get('/api/profile')).status()).toBe(401);
    await otherDevice.dispose();
    // This device stays signed in.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Profile Settings' })).toBeVisible();
  });
});
