/**
 * Documents in a share link, as the "Done when" has it: a PDF and a HEIC photo,
 * uploaded, chosen in 'Generate Share Link', opened by a stranger in a fresh browser: the
 * PDF downloads byte for byte, the photo is shown as its JPEG and downloads as itself.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { keptSamplePdf } from '../src/server/documents/fixtures/sample-files';
import { expect, expectAccessible, test } from './fixtures';

const HEIC = path.join(
  import.meta.dirname,
  '../src/server/documents/fixtures/rainbow-451x461.heic',
);

test('a PDF and a HEIC photo go in a share link and come out whole', async ({
  page,
  user,
  browser,
}) => {
  void user;
  // Three uploads, their JPEG and thumbnails made, and two browsers: slow on a busy machine.
  test.setTimeout(300_000);
  // As the server keeps it (without its information dictionary): downloaded byte for byte.
  const pdf = await keptSamplePdf(2);
  const heic = await readFile(HEIC);
  const uploads = [
    { name: 'discharge-letter.pdf', mimeType: 'application/pdf', buffer: pdf, type: 'Letter' },
    { name: 'rash.heic', mimeType: 'image/heic', buffer: heic, type: 'Imaging' },
    { name: 'not-shared.pdf', mimeType: 'application/pdf', buffer: pdf, type: 'Other' },
  ];
  await page.goto('/documents');
  for (const { type, ...file } of uploads) {
    await page.getByRole('button', { name: 'Upload Document' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Upload Document' });
    await dialog.getByLabel('File').setInputFiles(file);
    await dialog.getByLabel('Document Type').selectOption(type);
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await expect(dialog).toBeHidden();
  }

  // The HEIC as kept: the upload with its Exif and XMP emptied (what a download gives).
  const listed = (await (await page.request.get('/api/documents')).json()) as {
    documents: { title: string; file_url: string }[];
  };
  const keptPhoto = listed.documents.find((item) => item.title === 'rash.heic');
  expect(keptPhoto).toBeDefined();
  const keptHeic = await (await page.request.get(keptPhoto!.file_url)).body();

  await page.goto('/share');
  await page.getByRole('button', { name: 'Generate Share Link', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Generate Share Link' });
  const documents = dialog.getByRole('group', { name: 'Documents' });
  // None chosen until the owner ticks them.
  for (const { name } of uploads) {
    await expect(documents.getByRole('checkbox', { name })).not.toBeChecked();
  }
  await documents.getByRole('checkbox', { name: 'discharge-letter.pdf' }).check();
  await documents.getByRole('checkbox', { name: 'rash.heic' }).check();
  await expectAccessible(page);
  await documents.scrollIntoViewIfNeeded();
  await page.screenshot({ path: test.info().outputPath('share-dialog-documents.png') });
  await dialog.getByRole('button', { name: 'Create Link' }).click();
  const link = await dialog.getByLabel('Share Link').inputValue();
  expect(link).toMatch(/#shlink:\//);
  await page.keyboard.press('Escape');

  const stranger = await browser.newContext({
    viewport: page.viewportSize() ?? undefined,
    acceptDownloads: true,
  });
  const viewer = await stranger.newPage();
  await viewer.goto(link);
  const shared = viewer.getByRole('region', { name: 'Documents' });
  await expect(shared.getByText('discharge-letter.pdf')).toBeVisible();
  await expect(shared.getByText('rash.heic')).toBeVisible();
  await expect(shared.getByText('not-shared.pdf')).toBeHidden();
  await expect(shared.getByText(/^Letter · /)).toBeVisible();
  await expect(shared.getByText(/^Imaging · /)).toBeVisible();
  // Documents are not notes.
  await expect(viewer.getByRole('region', { name: 'Notes' })).toBeHidden();

  // The PDF: opened in a new tab, and downloaded byte for byte.
  const [tab] = await Promise.all([
    viewer.waitForEvent('popup'),
    shared.getByRole('button', { name: 'Open discharge-letter.pdf' }).click(),
  ]);
  expect(tab.url()).toMatch(/^blob:/);
  await tab.close();
  const [pdfDownload] = await Promise.all([
    viewer.waitForEvent('download'),
    shared.getByRole('button', { name: 'Download discharge-letter.pdf' }).click(),
  ]);
  expect(pdfDownload.suggestedFilename()).toBe('discharge-letter.pdf');
  expect((await readFile(await pdfDownload.path())).equals(pdf)).toBe(true);

  // The photo: shown as its JPEG, downloaded as the HEIC it was.
  const view = shared.getByRole('button', { name: 'View rash.heic' });
  await expect(view).toHaveAttribute('aria-expanded', 'false');
  await view.click();
  await expect(view).toHaveAttribute('aria-expanded', 'true');
  const photo = shared.getByRole('img', { name: 'rash.heic' });
  await expect(photo).toBeVisible();
  await expect(photo).toHaveAttribute('src', /^data:image\/jpeg;base64,/);
  expect(await photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(451);
  const [heicDownload] = await Promise.all([
    viewer.waitForEvent('download'),
    shared.getByRole('button', { name: 'Download rash.heic' }).click(),
  ]);
  expect((await readFile(await heicDownload.path())).equals(keptHeic)).toBe(true);
  await expectAccessible(viewer);
  await shared.scrollIntoViewIfNeeded();
  await viewer.screenshot({ path: test.info().outputPath('viewer-documents.png'), fullPage: true });
  await stranger.close();
});
