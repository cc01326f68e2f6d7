/**
 * Changing the email address, end to end (issue 34, item 4): Profile Settings 'Email' asks
 * the password (decision 0048) and sends a confirmation link to the new address (the old
 * one is told), and following it changes the address, back on Profile Settings; both
 * addresses are told.
 */
import { expect, expectAccessible, PASSCODE, signUpViaApi, test, uniqueEmail } from './fixtures';
import { e2ePort as port, mailOrigin as origin, mailTo, useMailServer } from './mailbox';

test.describe('by email', () => {
  // One mail-enabled server (SQLite) serves every project: once is enough.
  useMailServer();

  test('Change Email sends a link to the new address; following it changes the email', async ({
    page,
  }) => {
    const user = { name: 'Grace Hopper', email: uniqueEmail('change'), password: 'a-password-1' };
    const signedUp = await page.request.post('/api/auth/sign-up/email', {
      data: { ...user, passcode: PASSCODE },
      headers: { origin },
    });
    expect(signedUp.status(), await signedUp.text()).toBe(200);
    const newEmail = uniqueEmail('moved');
    await page.goto('/profile-settings');
    await page.getByRole('button', { name: 'Change Email' }).click();
    const form = page.getByRole('form', { name: 'Change Email' });
    await form.getByLabel('New Email').fill(newEmail);
    await form.getByLabel('Password', { exact: true }).fill('not-the-password');
    await form.getByRole('button', { name: 'Send Confirmation Link' }).click();
    await expect(form.getByText('The password is not correct')).toBeVisible();
    await form.getByLabel('Password', { exact: true }).fill(user.password);
    await form.getByRole('button', { name: 'Send Confirmation Link' }).click();
    await expect(
      page.getByText(`Check ${newEmail} for a link to confirm the change.`),
    ).toBeVisible();
    await expectAccessible(page);

    await expect.poll(() => mailTo(port, newEmail).length, { timeout: 20_000 }).toBe(1);
    await expect
      .poll(() => mailTo(port, user.email).map((mail) => mail.subject), { timeout: 20_000 })
      .toContain('Your Kin Health email address is being changed');
    const link = /https?:\/\/\S+/.exec(mailTo(port, newEmail)[0]?.text ?? '')?.[0] ?? '';
    expect(link.startsWith(`${origin}/api/auth/verify-email?token=`)).toBe(true);

    await page.goto(link);
    await expect(page).toHaveURL(/\/profile-settings\?email=changed$/);
    await expect(
      page.getByText('Email changed. Sign in with your new email from now on.'),
    ).toBeVisible();
    await expect(page.getByText(`Your account’s email is ${newEmail}.`)).toBeVisible();
    await expect
      .poll(() => mailTo(port, user.email).map((mail) => mail.subject), { timeout: 20_000 })
      .toContain('Your Kin Health email address was changed');
  });
});

test.describe('without mail', () => {
  test('Change Email is not offered, and the section says email is not set up', async ({
    page,
  }) => {
    await signUpViaApi(page);
    await page.goto('/profile-settings');
    await expect(page.getByRole('button', { name: 'Change Email' })).toBeDisabled();
    await expect(
      page.getByText(
        'Email is not set up on this server, so the email address cannot be changed here.',
      ),
    ).toBeVisible();
  });
});

test.describe('email reminders', () => {
  useMailServer();

  test("'Email reminders' turns on and stays on", async ({ page }) => {
    const user = { name: 'Ada Byron', email: uniqueEmail('remind'), password: 'a-password-1' };
    const signedUp = await page.request.post('/api/auth/sign-up/email', {
      data: { ...user, passcode: PASSCODE },
      headers: { origin },
    });
    expect(signedUp.status(), await signedUp.text()).toBe(200);
    await page.goto('/profile-settings');
    const emailReminders = page.getByRole('switch', { name: 'Email reminders', exact: true });
    await expect(emailReminders).toHaveAttribute('aria-checked', 'false');
    await emailReminders.click();
    await expect(emailReminders).toHaveAttribute('aria-checked', 'true');
    await page.reload();
    await expect(emailReminders).toHaveAttribute('aria-checked', 'true');
  });
});

test("without mail, 'Email reminders' is disabled and says email is not set up", async ({
  page,
}) => {
  await signUpViaApi(page);
  await page.goto('/profile-settings');
  await expect(page.getByRole('switch', { name: 'Email reminders', exact: true })).toBeDisabled();
  await expect(
    page.getByText('Email is not set up on this server, so reminders cannot be sent by email.'),
  ).toBeVisible();
});
