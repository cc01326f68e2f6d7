/**
 * Single sign-on, end to end (issue 39): 'Sign in with Family Login' on the Sign In tab goes
 * to the test OpenID Provider (scripts/serve-e2e.ts) and back; the first time, the Friends &
 * Family Passcode is asked once and the account is made; signed out and back in, it is not
 * asked again. A refused return (a forged state) is said in words on the Sign In tab.
 */
import { expect, expectAccessible, PASSCODE, test } from './fixtures';
import { onPhoneOnly, singleSignOnOrigin, SSO_NAME, ssoIdentityFor } from './single-sign-on';

test.describe('single sign-on', () => {
  onPhoneOnly();

  test('signs in with the identity provider: the passcode once for the new account, then never', async ({
    page,
  }, testInfo) => {
    const origin = singleSignOnOrigin();
    const identity = ssoIdentityFor(testInfo.project.name);

    await page.goto(`${origin}/auth`);
    await page.getByRole('button', { name: `Sign in with ${SSO_NAME}` }).click();
    // The provider's own sign-in page.
    await expect(page.getByRole('heading', { name: 'Test Identity Provider' })).toBeVisible();
    await page.getByLabel('Email').fill(identity.email);
    await page.getByRole('button', { name: 'Continue' }).click();

    // Back here: the first sign-in asks for the passcode.
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    await expectAccessible(page);
    await page.getByLabel('Friends & Family Passcode').fill(PASSCODE);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page).toHaveURL(`${origin}/`);
    await expect(page.getByRole('heading', { name: 'Welcome, Ada!' })).toBeVisible();

    // Signed out and back in: no passcode asked.
    const signOut = await page.request.post(`${origin}/api/auth/sign-out`, {
      headers: { origin },
      data: {},
    });
    expect(signOut.status()).toBe(200);
    await page.goto(`${origin}/auth`);
    // The provider remembers this browser and answers at once; no passcode is asked here.
    await page.getByRole('button', { name: `Sign in with ${SSO_NAME}` }).click();
    await expect(page).toHaveURL(`${origin}/`);
    await expect(page.getByRole('heading', { name: 'Welcome, Ada!' })).toBeVisible();
  });

  test('says why a return with a forged state was refused', async ({ page }) => {
    const origin = singleSignOnOrigin();
    await page.goto(`${origin}/api/auth/callback/oidc?code=forged&state=forged`);
    await expect(page).toHaveURL(/\/auth\?error=state_/);
    await expect(page.getByRole('alert')).toContainText('its state did not match');
    await expect(page.getByRole('button', { name: `Sign in with ${SSO_NAME}` })).toBeVisible();
  });
});
