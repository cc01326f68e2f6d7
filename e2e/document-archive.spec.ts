/**
 * 'Download my data' with a document is a .zip archive, and 'Import from a file' in another
 * account brings the document back: seen in /documents with its thumbnail.
 */
import { samplePdf } from '../src/server/documents/fixtures/sample-files';
import { expect, expectAccessible, signUpViaApi, test } from './fixtures';

test('a document goes into another account through Download my data and Import from a file', async ({
  page,
  user,
  browser,
}) => {
  void user;
  const base = test.info().project.use.baseURL ?? '';
  const uploaded = await page.request.post(
    `/api/documents?${new URLSearchParams({ title: 'Discharge letter', document_type: 'Letter', file_name: 'discharge.pdf' })}`,
    { data: await samplePdf(), headers: { origin: base, 'content-type': 'application/pdf' } },
  );
  expect(uploaded.status()).toBe(201);

  await page.goto('/profile-settings');
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download my data' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^kin-health-export-\d{4}-\d{2}-\d{2}\.zip$/);
  const file = await download.path();

  const context = await browser.newContext({ baseURL: base });
  const other = await context.newPage();
  await signUpViaApi(other, 'Nora Newton');
  await other.goto('/profile-settings');
  await other.getByLabel('Import from a file').setInputFiles(file);
  await expect(other.getByText('Documents: 1 new, 0 already here, 0 changed')).toBeVisible();
  await expectAccessible(other);
  await other.screenshot({ path: test.info().outputPath('archive-preview.png') });
  await other.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(other.getByText('Imported 1 record')).toBeVisible();

  await other.goto('/documents');
  await expect(other.getByRole('img', { name: 'Discharge letter thumbnail' })).toBeVisible();
  await other.screenshot({ path: test.info().outputPath('archive-documents.png') });

  // The same archive again: already here, nothing added.
  await other.goto('/import');
  await other.getByLabel('Import from a file').setInputFiles(file);
  await expect(other.getByText('Documents: 0 new, 1 already here, 0 changed')).toBeVisible();
  await context.close();
});
