import { pdfText } from '../src/server/test/pdf-text';
import { SUMMARY_HEADINGS } from '../src/server/summary/summary-factories';
import {
  addMemberViaApi,
  createRecordViaApi,
  expect,
  expectAccessible,
  localDay,
  test,
} from './fixtures';

test('Export as PDF downloads the chosen person’s health summary as a PDF', async ({
  page,
  user,
}) => {
  const leo = await addMemberViaApi(page, { name: 'Leo Garcia', date_of_birth: '2017-04-12' });
  await createRecordViaApi(page, 'allergies', {
    substance: 'Penicillin',
    severity: 'Severe',
    family_member_id: leo.id,
  });
  await createRecordViaApi(page, 'medications', {
    medication_name: 'Albuterol',
    dosage: '2 puffs',
    family_member_id: leo.id,
  });
  await createRecordViaApi(page, 'medications', { medication_name: 'Not Leo’s pill' });
  // Given today: an immunization, not a shot to come.
  await createRecordViaApi(page, 'shots', {
    shot_name: 'DTaP dose 2',
    date_administered: localDay(0),
    family_member_id: leo.id,
  });

  await page.goto('/share');
  await page.getByRole('button', { name: /Export as PDF/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Export as PDF' });
  await expect(dialog).toBeVisible();
  const person = dialog.getByLabel('Person');
  await expect(person).toBeFocused();
  await expect(person.locator('option')).toHaveText([`${user.name} (you)`, 'Leo Garcia']);
  await expectAccessible(page);
  await person.selectOption({ label: 'Leo Garcia' });

  const downloading = page.waitForEvent('download');
  await dialog.getByRole('button', { name: 'Download PDF' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(
    /^kin-health-summary-leo-garcia-\d{4}-\d{2}-\d{2}\.pdf$/,
  );
  const text = (await pdfText(await download.path())).replace(/\s+/g, ' ');
  for (const expected of [
    'Leo Garcia',
    ...SUMMARY_HEADINGS,
    'Penicillin',
    'Albuterol',
    '2 puffs',
  ]) {
    expect(text, expected).toContain(expected);
  }
  expect(text).not.toContain('Not Leo’s pill');
  const immunizations = text.slice(text.indexOf('Immunizations'), text.indexOf('Upcoming Visits'));
  const today = new Date().toLocaleDateString('en-US', {
    month: 'long',
    day: 'numeric',
    year: 'numeric',
  });
  expect(immunizations).toContain(`DTaP dose 2 ${today}`);
  await expect(page.getByText('PDF downloaded')).toBeVisible();
  await expect(dialog).toBeHidden();
});

test('Export as PDF says why a download failed, and can be closed with Escape', async ({
  page,
  user,
}) => {
  void user;
  await page.route('**/api/persons/*/summary.pdf*', (route) =>
    route.fulfill({ status: 503, json: { message: 'The database is not answering' } }),
  );
  await page.goto('/share');
  await page.getByRole('button', { name: /Export as PDF/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Export as PDF' });
  await dialog.getByRole('button', { name: 'Download PDF' }).click();
  await expect(page.getByText('The database is not answering')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Download PDF' })).not.toHaveAttribute(
    'aria-disabled',
    'true',
  );
  await expect(dialog.getByRole('button', { name: 'Download PDF' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: /Export as PDF/ })).toBeFocused();
});
