/**
 * Documents, as the "Done when" has it: on a phone, a photo of an insurance card
 * attached to its policy, seen on the policy's page and in /documents, downloaded without
 * its GPS position.
 */
import { readFile } from 'node:fs/promises';
import exifr from 'exifr';
import sharp from 'sharp';
import { gpsPhoto } from '../src/server/documents/fixtures/sample-files';
import { createRecordViaApi, expect, expectAccessible, test } from './fixtures';

/** A phone's photo: a GPS position and a device in its EXIF. */
const cardPhoto = () => gpsPhoto({ width: 640, height: 400 });

test('a photo of an insurance card, attached to its policy, downloads without its GPS position', async ({
  page,
  user,
}) => {
  void user;
  const photo = await cardPhoto();
  expect((await exifr.gps(photo))?.latitude).toBeCloseTo(48.85, 1);
  const policy = await createRecordViaApi(page, 'insurance', { provider_name: 'Acme Health' });

  await page.goto(`/insurance/${policy.id}`);
  await expect(page.getByRole('heading', { name: 'Documents' })).toBeVisible();
  await page.getByRole('button', { name: 'Attach Document' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload Document' });
  const file = dialog.getByLabel('File');
  // The image types make a phone offer its camera beside its files.
  await expect(file).toHaveAttribute('accept', /image\/jpeg/);
  await file.setInputFiles({ name: 'insurance-card.jpg', mimeType: 'image/jpeg', buffer: photo });
  await expect(dialog.getByLabel('Title')).toHaveValue('insurance-card.jpg');
  await expect(dialog.getByLabel('Document Type')).toHaveValue('Insurance Card');
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Upload' }).click();
  await expect(dialog).toBeHidden();

  const thumbnail = page.getByRole('img', { name: 'insurance-card.jpg thumbnail' });
  await expect(thumbnail).toBeVisible();

  await page.goto('/documents');
  await expect(thumbnail).toBeVisible();
  await expectAccessible(page);
  await thumbnail.click();
  await expect(page.getByRole('heading', { name: 'insurance-card.jpg' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'insurance-card.jpg', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Insurance' })).toBeVisible();

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download' }).click(),
  ]);
  const downloaded = await readFile(await download.path());
  expect(download.suggestedFilename()).toBe('insurance-card.jpg');
  expect((await sharp(downloaded).metadata()).format).toBe('jpeg');
  expect(await exifr.gps(downloaded)).toBeUndefined();
  expect(await exifr.parse(downloaded, { tiff: true, gps: true })).toBeUndefined();
});
