/**
 * Search inside documents, as the "Done when" has it: a scanned letter (an image with
 * no text layer) uploaded in the browser is found by a word of its body within a minute, and
 * the result opens the document, whose page shows the text read from it. A scanner's PDF (a
 * JPEG filling each page) is read the same way, its page drawn at 300 dpi.
 */
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { scannedPdf } from '../src/server/documents/fixtures/sample-files';
import { expect, test } from './fixtures';

/** A letter scanned at about 300 dpi: black text on white, nothing but pixels. */
function scannedLetter(lines: string[], height = 1000): Promise<Buffer> {
  const text = lines
    .map((line, index) => `<text x="150" y="${300 + index * 90}">${line}</text>`)
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="2550" height="${height}">
    <rect width="100%" height="100%" fill="white"/>
    <g font-family="DejaVu Sans, sans-serif" font-size="56" fill="black">${text}</g></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** A file uploaded from /documents' 'Upload Document' dialog, its Document Type chosen if given. */
async function uploadFromDocuments(
  page: Page,
  file: { name: string; mimeType: string; buffer: Buffer },
  documentType?: string,
) {
  await page.goto('/documents');
  await page.getByRole('button', { name: 'Upload Document' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Upload Document' });
  await dialog.getByLabel('File').setInputFiles(file);
  if (documentType) await dialog.getByLabel('Document Type').selectOption(documentType);
  await dialog.getByRole('button', { name: 'Upload' }).click();
  await expect(dialog).toBeHidden();
}

test('a scanned letter uploaded in the browser is found by a word of its body', async ({
  page,
  user,
}) => {
  test.setTimeout(180_000);
  void user;
  const letter = await scannedLetter([
    'Dear Dr Lindqvist,',
    'Please arrange an MRI of the left knee',
    'for persistent swelling after the fall.',
  ]);

  await uploadFromDocuments(
    page,
    { name: 'referral-scan.png', mimeType: 'image/png', buffer: letter },
    'Referral',
  );

  // The text is read in the background; search finds the document once it is (the page is
  // loaded again each time, as its answer for one query is kept).
  const box = page.getByRole('searchbox', { name: 'Search' });
  await box.fill('swelling');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/search\?q=swelling$/);
  const result = page.getByRole('link', { name: /referral-scan\.png/ });
  await expect(async () => {
    await page.goto('/search?q=swelling');
    await expect(page.getByRole('heading', { name: 'Documents' })).toBeVisible({
      timeout: 2_000,
    });
  }).toPass({ timeout: 60_000, intervals: [3_000] });
  await expect(result).toBeVisible();

  await result.click();
  await expect(page).toHaveURL(/\/documents\/[\w-]+$/);
  await expect(page.getByRole('heading', { name: 'referral-scan.png' })).toBeVisible();
  await expect(page.getByText(/MRI of the left knee/)).toBeVisible();
});

test('a scanner’s PDF is read by OCR: its text is on its page, and search finds it', async ({
  page,
  user,
}) => {
  void user;
  // One Letter page at 300 dpi (2,550 × 3,300), as a JPEG, as a scanner makes it.
  const page300 = await sharp(
    await scannedLetter(['Dermatology clinic', 'Review of the mole'], 3300),
  )
    .jpeg({ quality: 85 })
    .toBuffer();
  const letter = await scannedPdf(page300, 1);
  await uploadFromDocuments(page, {
    name: 'clinic-letter.pdf',
    mimeType: 'application/pdf',
    buffer: letter,
  });

  await page.getByRole('img', { name: 'clinic-letter.pdf thumbnail' }).click();
  await expect(page.getByRole('heading', { name: 'Text' })).toBeVisible();
  // Read in the background, a page at a time; the page asks again until it is.
  await expect(page.getByText(/Review of the mole/)).toBeVisible({ timeout: 60_000 });
  await page.screenshot({
    path: test.info().outputPath('scanned-pdf-text.png'),
    fullPage: true,
  });

  await page.goto('/search?q=dermatolog');
  await expect(page.getByRole('link', { name: /clinic-letter\.pdf/ })).toBeVisible();
});
