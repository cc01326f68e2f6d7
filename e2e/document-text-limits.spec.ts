/**
 * A long document's text is read from its first pages only (decision 0050): its page shows
 * the text read and says from how many pages it came.
 */
import { pdfBytes } from '../src/server/documents/fixtures/sample-files';
import { expect, test } from './fixtures';

test('a document longer than the pages read says its text is from the first 1,000 pages', async ({
  page,
  user,
}) => {
  test.setTimeout(180_000);
  void user;
  const record = await pdfBytes((doc) => {
    for (let number = 1; number <= 1_001; number += 1) {
      if (number > 1) doc.addPage();
      doc.fontSize(14).text(`Hospital record page ${number}`);
    }
  });
  await page.goto('/documents');
  await page.getByRole('button', { name: 'Upload Document' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Upload Document' });
  await dialog
    .getByLabel('File')
    .setInputFiles({ name: 'hospital-record.pdf', mimeType: 'application/pdf', buffer: record });
  await dialog.getByRole('button', { name: 'Upload' }).click();
  await expect(dialog).toBeHidden();

  await page.getByRole('img', { name: 'hospital-record.pdf thumbnail' }).click();
  await expect(page.getByRole('heading', { name: 'Text' })).toBeVisible();
  const note = page.getByText('Text read from the first 1,000 pages');
  await expect(note).toBeVisible({ timeout: 90_000 });
  await expect(page.getByText(/Hospital record page 1000\b/)).toBeVisible();
  await expect(page.getByText(/Hospital record page 1001\b/)).toHaveCount(0);
  await note.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('text-from-first-pages.png') });
});
