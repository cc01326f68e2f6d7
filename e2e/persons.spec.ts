/**
 * Every record belongs to a person, visibly (issue 33.3): the person comes first in every
 * form and the account holder is named there ('{name} (you)') and in the filter strip; a
 * contact names the persons it cares for ('Whole family' when none); a family member can
 * have family history of their own; a child's PDF carries the child's care team only.
 */
import { pdfText } from '../src/server/test/pdf-text';
import { addMemberViaApi, createRecordViaApi, expect, expectAccessible, test } from './fixtures';

test(
  'the account holder is named first in the form and has a chip in the filter strip',
  { tag: '@layout' },
  async ({ page, user }) => {
    const leo = await addMemberViaApi(page, { name: 'Leo' });
    await createRecordViaApi(page, 'shots', {
      shot_name: 'My tetanus',
      date_administered: '2020-01-01',
    });
    await createRecordViaApi(page, 'shots', {
      shot_name: 'Leo’s MMR',
      date_administered: '2020-01-01',
      family_member_id: leo.id,
    });
    await page.goto('/shots/new');
    const member = page.getByLabel('Family Member');
    await expect(member.locator('option')).toHaveText([`${user.name} (you)`, 'Leo']);
    // The person comes first: the first control of the form.
    await expect(page.locator('form select, form input, form textarea').first()).toHaveAttribute(
      'id',
      (await member.getAttribute('id')) ?? '',
    );

    await page.goto('/shots');
    await page.getByRole('button', { name: `${user.name} (you)` }).click();
    await expect(page.getByRole('button', { name: `${user.name} (you)` })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expect(page.getByRole('tab', { name: /Past/ })).toHaveText('Past(1)');
    await page.getByRole('tab', { name: /Past/ }).click();
    await expect(page.getByText('My tetanus')).toBeVisible();
    await expect(page.getByText('Leo’s MMR')).toHaveCount(0);
    await expectAccessible(page);
    // The record's detail names its person too.
    await page.getByText('My tetanus').click();
    await expect(
      page.getByRole('definition').filter({ hasText: `${user.name} (you)` }),
    ).toBeVisible();
  },
);

test('a contact cares for the persons ticked, or the whole family', async ({ page, user }) => {
  await addMemberViaApi(page, { name: 'Leo' });
  await createRecordViaApi(page, 'contacts', { contact_name: 'Corner Pharmacy' });
  await page.goto('/contacts/new');
  const caresFor = page.getByRole('group', { name: 'Cares For' });
  await expect(caresFor.getByRole('checkbox')).toHaveCount(2);
  await expect(caresFor.getByLabel(`${user.name} (you)`)).not.toBeChecked();
  await expect(caresFor.getByText('Whole family: no one is ticked.')).toBeVisible();
  await caresFor.getByLabel('Leo').check();
  await page.getByLabel('Contact Name').fill('Dr. Lena Paed');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Save Contact' }).click();
  await expect(page.getByText('Contact added', { exact: true })).toBeVisible();

  const paed = page.getByRole('link', { name: /Dr\. Lena Paed/ });
  await expect(paed).toContainText('Leo');
  await expect(page.getByRole('link', { name: /Corner Pharmacy/ })).toContainText('Whole family');
  await paed.click();
  // The detail, not the list it was opened from (whose cards also say 'Cares For' to a reader).
  await expect(page.getByRole('button', { name: 'Edit Contact' })).toBeVisible();
  await expect(page.getByText('Cares For')).toBeVisible();
  await page.getByRole('button', { name: 'Edit Contact' }).click();
  await expect(page.getByRole('group', { name: 'Cares For' }).getByLabel('Leo')).toBeChecked();
});

test('family history recorded for a family member keeps the member, with a relation to them', async ({
  page,
  user,
}) => {
  void user;
  await addMemberViaApi(page, { name: 'Leo' });
  await page.goto('/history/new');
  await page.getByLabel('Family Member').selectOption({ label: 'Leo' });
  await page.getByLabel('Condition Name').fill('Type 1 diabetes');
  await page.getByLabel('Family History').check();
  await expect(page.getByLabel('Family Member')).toHaveValue(/.+/);
  await page.getByLabel('Relation').fill('Father');
  await page.getByRole('button', { name: 'Save Condition' }).click();
  await expect(page.getByText('Condition added', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Leo' }).click();
  await expect(page.getByText('Relation: Father')).toBeVisible();
});

test('a child’s PDF lists the child’s care team, the whole family’s only when ticked', async ({
  page,
  user,
}) => {
  void user;
  const leo = await addMemberViaApi(page, { name: 'Leo Garcia' });
  await createRecordViaApi(page, 'contacts', {
    contact_name: 'Dr. Lena Paed',
    person_ids: [leo.id],
  });
  await createRecordViaApi(page, 'contacts', { contact_name: 'Corner Pharmacy' });
  await page.goto('/share');
  await page.getByRole('button', { name: /Export as PDF/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Export as PDF' });
  await dialog.getByLabel('Person').selectOption({ label: 'Leo Garcia' });
  const whole = dialog.getByLabel('Include whole-family contacts');
  await expect(whole).not.toBeChecked();

  const pdfOnce = async () => {
    const downloading = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Download PDF' }).click();
    return (await pdfText(await (await downloading).path())).replace(/\s+/g, ' ');
  };
  const own = await pdfOnce();
  expect(own).toContain('Dr. Lena Paed');
  expect(own).not.toContain('Corner Pharmacy');

  await page.getByRole('button', { name: /Export as PDF/ }).click();
  await dialog.getByLabel('Person').selectOption({ label: 'Leo Garcia' });
  await whole.check();
  expect(await pdfOnce()).toContain('Corner Pharmacy');
});
