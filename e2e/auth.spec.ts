import { expect, expectAccessible, PASSCODE, test, uniqueEmail } from './fixtures';

test.describe('auth', () => {
  test('a new user signs up and lands on the timeline with the greeting', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
    await expectAccessible(page);

    await page.getByRole('tab', { name: 'Sign Up' }).click();
    await page.getByLabel('Full Name').fill('Ann Marie Lee');
    await page.getByLabel('Email').fill(uniqueEmail());
    await page.getByLabel('Password').fill('secret1');
    await page.getByLabel('Friends & Family Passcode').fill(PASSCODE);
    await page.getByRole('button', { name: 'Sign Up' }).click();

    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: 'Welcome, Ann!' })).toBeVisible();
    // Signed in already: the toast does not tell them to sign in.
    await expect(page.getByText('Account created successfully.', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Account' })).toHaveText('AL');
    await expect(
      page.getByText('No health events yet. Tap + to add your first entry.'),
    ).toBeVisible();
    await expectAccessible(page);

    // The session outlives a reload.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Welcome, Ann!' })).toBeVisible();
  });

  test('sign-up shows the password’s strength as it is typed, and takes a common one with a warning that Profile Settings repeats', async ({
    page,
  }) => {
    await page.goto('/auth');
    await page.getByRole('tab', { name: 'Sign Up' }).click();
    await page.getByLabel('Full Name').fill('Ann Lee');
    await page.getByLabel('Email').fill(uniqueEmail());
    const password = page.getByLabel('Password');
    const common = page.getByText(
      'This password is one of the most common. Anyone could guess it.',
    );
    await password.fill('violet-harbour-71-kettle');
    await expect(page.getByText('Strength: Very strong')).toBeVisible();
    await expect(common).toBeHidden();
    await password.fill('password123');
    await expect(common).toBeVisible();
    await password.fill('123456');
    await expect(common).toBeVisible();
    await expect(page.getByText('Strength: Very weak')).toBeVisible();
    await expect(password).toHaveAccessibleDescription(/one of the most common/);
    await expectAccessible(page);
    // SPEC's rule is the only refusal: the common password is taken.
    await page.getByLabel('Friends & Family Passcode').fill(PASSCODE);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page.getByRole('heading', { name: 'Welcome, Ann!' })).toBeVisible();

    await page.goto('/profile-settings');
    await expect(
      page.getByRole('heading', { name: 'Your password is easy to guess' }),
    ).toBeVisible();
    await expect(page.getByText(/The password you chose is one of the most common/)).toBeVisible();
  });

  test('a wrong passcode at sign-up is refused and creates nothing', async ({ page }) => {
    const email = uniqueEmail();
    await page.goto('/auth');
    // An email typed on Sign In is still there on Sign Up.
    await page.getByLabel('Email').fill(email);
    await page.getByRole('tab', { name: 'Sign Up' }).click();
    await expect(page.getByLabel('Email')).toHaveValue(email);
    await page.getByLabel('Full Name').fill('Eve');
    await page.getByLabel('Password').fill('secret1');
    await page.getByLabel('Friends & Family Passcode').fill('111');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page.getByText('Passcode must be exactly 6 digits')).toBeVisible();
    await page.getByLabel('Friends & Family Passcode').fill('111111');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page.getByText('Invalid Friends & Family Passcode')).toBeVisible();
    // The newer refusal replaces the older one rather than stacking under it.
    await expect(page.locator('[data-sonner-toast]')).toHaveCount(1);
    await expect(page).toHaveURL(/\/auth$/);

    // Nothing was created: the same email signs up fine with the right passcode.
    await page.getByLabel('Friends & Family Passcode').fill(PASSCODE);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page.getByRole('heading', { name: 'Welcome, Eve!' })).toBeVisible();
  });

  test('an empty or short field is refused in words, not only by the browser', async ({ page }) => {
    await page.goto('/auth');
    // A tab clicked shows no focus ring (it looked like a second selected tab); one reached
    // with the arrow keys does.
    const outline = (name: string) =>
      page.getByRole('tab', { name }).evaluate((tab) => getComputedStyle(tab).outlineStyle);
    await page.getByRole('tab', { name: 'Sign Up' }).click();
    await expect(page.getByLabel('Full Name')).toBeVisible();
    expect(await outline('Sign Up')).toBe('none');
    await page.keyboard.press('ArrowLeft');
    await expect(page.getByRole('tab', { name: 'Sign In' })).toBeFocused();
    expect(await outline('Sign In')).not.toBe('none');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByText('Email is required')).toBeVisible();
    await page.getByRole('tab', { name: 'Sign Up' }).click();
    await page.getByLabel('Full Name').fill('Eve');
    await page.getByLabel('Email').fill(uniqueEmail());
    await page.getByLabel('Password').fill('abc');
    await page.getByLabel('Friends & Family Passcode').fill(PASSCODE);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
    await expect(page).toHaveURL(/\/auth$/);
  });

  test('the passcode input keeps six digits only, and a short one is refused', async ({ page }) => {
    await page.goto('/auth');
    const passcode = page.getByLabel('Friends & Family Passcode');
    await passcode.pressSequentially('12ab34-5678');
    await expect(passcode).toHaveValue('123456');
    // Pasted with a separator, as a passcode is often written down: all six digits stay.
    await passcode.fill('');
    await passcode.focus();
    await page.keyboard.insertText('123 456');
    await expect(passcode).toHaveValue('123456');
    await passcode.fill('');
    await passcode.pressSequentially('123');
    await page.getByLabel('Email').fill('someone@example.com');
    await page.getByLabel('Password').fill('secret1');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByText('Passcode must be exactly 6 digits')).toBeVisible();
  });

  test('sign-in checks the passcode; logout ends the session', async ({ page, user }) => {
    await page.context().clearCookies();
    await page.goto('/auth');
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByLabel('Friends & Family Passcode').fill('999999');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByText('Invalid Friends & Family Passcode')).toBeVisible();
    await expect(page).toHaveURL(/\/auth$/);

    await page.getByLabel('Friends & Family Passcode').fill(PASSCODE);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Welcome, Ann!' })).toBeVisible();

    await page.getByRole('button', { name: 'Account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Account' });
    await expect(dialog.getByRole('link', { name: 'User Profile' })).toBeVisible();
    await expect(dialog.getByRole('link', { name: 'Family Members' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Delete Account' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/auth$/);

    // The server forgot the session: protected screens send the user back.
    await page.goto('/visits');
    await expect(page).toHaveURL(/\/auth$/);
  });

  test('every screen but /auth needs a session', async ({ page }) => {
    for (const path of [
      '/',
      '/list',
      '/profiles',
      '/visits',
      '/history',
      '/notes/new',
      '/insurance',
      '/contacts',
      '/share',
      '/profile-settings',
      '/growth',
    ]) {
      await page.goto(path);
      await expect(page, path).toHaveURL(/\/auth$/);
    }
  });

  test('a signed-in user opening /auth goes to the timeline', async ({ page, user }) => {
    await page.goto('/auth');
    await expect(page).toHaveURL(/\/$/);
    await expect(
      page.getByRole('heading', { name: `Welcome, ${user.name.split(' ')[0]}!` }),
    ).toBeVisible();
  });

  test('deleting the account asks first, then removes it', async ({ page, user }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('button', { name: 'Delete Account' }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toBeVisible();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();

    await page.getByRole('button', { name: 'Account', exact: true }).click();
    await page.getByRole('button', { name: 'Delete Account' }).click();
    const proof = page.getByRole('alertdialog');
    // The password is asked for, and a wrong one deletes nothing.
    await proof.getByRole('button', { name: /^Delete/ }).click();
    await expect(proof.getByText('Password is required')).toBeVisible();
    await proof.getByLabel('Password').fill('not-my-password');
    await proof.getByRole('button', { name: /^Delete/ }).click();
    await expect(proof.getByText('The password is not correct')).toBeVisible();
    await proof.getByLabel('Password').fill(user.password);
    await proof.getByRole('button', { name: /^Delete/ }).click();
    await expect(page.getByText('Your account has been permanently deleted.')).toBeVisible();
    await expect(page).toHaveURL(/\/auth$/);

    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByLabel('Friends & Family Passcode').fill(PASSCODE);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByText('Invalid email or password')).toBeVisible();
  });
});
