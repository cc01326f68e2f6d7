import { MEMBER_COLOR_NAMES } from '../src/shared/constants';
import { expect, expectAccessible, test } from './fixtures';

test('family members are added, renamed and deleted on /profiles', async ({ page, user }) => {
  void user;
  await page.goto('/profiles');
  await expect(page.getByText('No family members yet')).toBeVisible();

  await page.getByRole('button', { name: 'Add Family Member' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Family Member' });
  await dialog.getByLabel('Name').fill('Bobby');
  await dialog.getByLabel('Date of Birth').fill('2016-05-20');
  await dialog.getByRole('radio', { name: '#3b82f6' }).check();
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Add Member' }).click();
  await expect(page.getByText('Family member added successfully')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Bobby' })).toBeVisible();
  await expect(page.getByText('Born May 20, 2016')).toBeVisible();

  await page.getByRole('button', { name: 'Edit Bobby' }).click();
  const edit = page.getByRole('dialog', { name: 'Update Family Member' });
  await expect(edit.getByLabel('Name')).toHaveValue('Bobby');
  await expect(edit.getByRole('radio', { name: '#3b82f6' })).toBeChecked();
  await edit.getByLabel('Name').fill('Robert');
  await edit.getByLabel('Date of Birth').fill('');
  await edit.getByRole('button', { name: 'Update Member' }).click();
  await expect(page.getByText('Family member updated successfully')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Robert' })).toBeVisible();
  await expect(page.getByText('No date of birth')).toBeVisible();

  // The timeline's filter strip lists the member.
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Robert' }).click();
  await expect(page.getByRole('button', { name: 'Robert' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  await page.goto('/profiles');
  await page.getByRole('button', { name: 'Delete Robert' }).click();
  const confirm = page.getByRole('alertdialog');
  for (const item of [
    'Medical history',
    'Medications',
    'Appointments and visits',
    'Notes and documents',
    'Insurance',
  ]) {
    await expect(confirm.getByText(item, { exact: true })).toBeVisible();
  }
  await confirm.getByRole('button', { name: /^Delete/ }).click();
  await expect(page.getByText('Family member and all associated data removed')).toBeVisible();
  await expect(page.getByText('No family members yet')).toBeVisible();
  // The card and its Delete button are gone: focus rests on the screen's title.
  await expect(page.getByRole('heading', { name: 'Family Profiles', level: 1 })).toBeFocused();
});

test('the member dialog opens on the default colour and needs a name', async ({ page, user }) => {
  void user;
  await page.goto('/profiles');
  await page.getByRole('button', { name: 'Add Family Member' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Family Member' });
  await expect(dialog.getByRole('radio', { name: '#20c997' })).toBeChecked();
  await expect(dialog.getByRole('radio')).toHaveCount(6);
  await expect(dialog.getByLabel('Name')).toHaveAttribute('required', '');
});

test('a colour swatch is named by its hex value and described by the colour’s name', async ({
  page,
  user,
}) => {
  void user;
  await page.goto('/profiles');
  await page.getByRole('button', { name: 'Add Family Member' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Family Member' });
  for (const [hex, name] of Object.entries(MEMBER_COLOR_NAMES)) {
    const swatch = dialog.getByRole('radio', { name: hex, exact: true });
    await expect(swatch).toHaveAccessibleName(hex);
    await expect(swatch).toHaveAccessibleDescription(name);
  }
  await expect(
    dialog.getByRole('radio', { name: '#3b82f6', exact: true }),
  ).toHaveAccessibleDescription('Blue');
  await dialog.getByRole('radio', { name: '#3b82f6', exact: true }).check();
  await expect(dialog.getByRole('radio', { name: '#3b82f6', exact: true })).toBeChecked();
  await expectAccessible(page);
});
