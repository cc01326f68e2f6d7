/**
 * Documents, as the "Done when" has it: on a phone, a photo of an insurance card
 * attached to its policy, seen on the policy's page and in /documents, downloaded without
 * its GPS position. After upload (CONTRACT §6): a document edited and attached to a visit
 * from its own page, then to a policy as the document it already is, one document on both;
 * attached from a visit, dated by the visit's day; /documents filtered to a member with none.
 */
import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import exifr from 'exifr';
import sharp from 'sharp';
import { gpsPhoto, pdfBytes, samplePdf } from '../src/server/documents/fixtures/sample-files';
import { addMemberViaApi, createRecordViaApi, expect, expectAccessible, test } from './fixtures';

/** A phone's photo: a GPS position and a device in its EXIF. */
const cardPhoto = () => gpsPhoto({ width: 640, height: 400 });

/** Uploads a file from the Upload Document dialog, and waits for the dialog to close. */
async function uploadIn(dialog: Locator, file: { name: string; mimeType: string; buffer: Buffer }) {
  await dialog.getByLabel('File').setInputFiles(file);
  await dialog.getByRole('button', { name: 'Upload' }).click();
  await expect(dialog).toBeHidden();
}

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
  // What is kept of a file is said before one is chosen.
  await expect(file).toHaveAccessibleDescription(
    /kept without their location, camera and author details/,
  );
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

test('a PDF locked by a password is kept, and its page says why its text cannot be read', async ({
  page,
  user,
}) => {
  void user;
  const locked = await pdfBytes((doc) => doc.text('Blood test results'), {
    userPassword: 'portal-password',
  });
  await page.goto('/documents?upload');
  await uploadIn(page.getByRole('dialog', { name: 'Upload Document' }), {
    name: 'locked-results.pdf',
    mimeType: 'application/pdf',
    buffer: locked,
  });
  await page.getByRole('img', { name: 'locked-results.pdf thumbnail' }).click();
  await expect(page.getByRole('heading', { name: 'locked-results.pdf' })).toBeVisible();
  await expect(
    page.getByText('This PDF is locked with a password, so its text cannot be read.'),
  ).toBeVisible({ timeout: 30_000 });
  await expectAccessible(page);
});

test.describe('after upload', () => {
  // A visit at 02:30 UTC on March 4 is on March 3 in New York: the reader's day counts.
  test.use({ timezoneId: 'America/New_York' });
  const checkUp = (page: Page) =>
    createRecordViaApi(page, 'visits', {
      visit_name: 'Check-up',
      visit_date: '2026-03-04T02:30:00.000Z',
    });

  test('a document edited and attached to a visit from its page, then picked on a policy, is one document on both', async ({
    page,
    user,
  }) => {
    void user;
    const visit = await checkUp(page);
    const policy = await createRecordViaApi(page, 'insurance', { provider_name: 'Acme Health' });

    await page.goto('/documents?upload');
    await uploadIn(page.getByRole('dialog', { name: 'Upload Document' }), {
      name: 'card.jpg',
      mimeType: 'image/jpeg',
      buffer: await cardPhoto(),
    });
    await page.getByRole('img', { name: 'card.jpg thumbnail' }).click();

    await page.getByRole('button', { name: 'Edit Document' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Document' });
    await expect(edit.getByLabel('Title')).toHaveValue('card.jpg');
    await edit.getByLabel('Title').fill('Acme card');
    await edit.getByLabel('Document Type').selectOption('Insurance Card');
    await edit.getByLabel('Document Date').fill('2026-02-01');
    await expect(edit.getByLabel('Family Member')).toHaveValue('');
    const attachedTo = edit.getByLabel('Attached To');
    await expect(attachedTo).toHaveValue('');
    await expect(attachedTo.locator('option').first()).toHaveText('Nothing');
    await attachedTo.selectOption({ label: 'Visit: Check-up (Mar 3, 2026)' });
    await expectAccessible(page);
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit).toBeHidden();
    await expect(page.getByRole('heading', { name: 'Acme card' })).toBeVisible();

    await page.getByRole('link', { name: 'Visit: Check-up (Mar 3, 2026)' }).click();
    await expect(page).toHaveURL(`/visits/${visit.id}`);
    await expect(page.getByRole('heading', { name: 'Documents' })).toBeVisible();
    await expect(page.getByRole('img', { name: 'Acme card thumbnail' })).toBeVisible();

    await page.goto(`/insurance/${policy.id}`);
    await page.getByRole('button', { name: 'Attach Document' }).click();
    const attach = page.getByRole('dialog', { name: 'Upload Document' });
    await attach
      .getByLabel('Existing Document')
      .selectOption({ label: 'Insurance Card: Acme card (Feb 1, 2026)' });
    // An existing document is attached as it is: nothing to upload, nothing to fill in.
    await expect(attach.getByLabel('File')).toBeHidden();
    await expectAccessible(page);
    await attach.getByRole('button', { name: 'Attach' }).click();
    await expect(attach).toBeHidden();
    await expect(page.getByRole('img', { name: 'Acme card thumbnail' })).toBeVisible();

    await page.goto('/documents');
    await expect(page.getByRole('img', { name: 'Acme card thumbnail' })).toHaveCount(1);
    await page.getByRole('img', { name: 'Acme card thumbnail' }).click();
    await expect(page.getByRole('link', { name: 'Visit: Check-up (Mar 3, 2026)' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Insurance: Acme Health' })).toBeVisible();
  });

  test("a document attached from a visit or a lab result takes the record's day as its date", async ({
    page,
    user,
  }) => {
    void user;
    const visit = await checkUp(page);
    const lab = await createRecordViaApi(page, 'labs', {
      test_name: 'HbA1c',
      result: '5.4',
      collected_date: '2026-01-15',
    });

    await page.goto(`/labs/${lab.id}`);
    await page.getByRole('button', { name: 'Attach Document' }).click();
    await expect(
      page.getByRole('dialog', { name: 'Upload Document' }).getByLabel('Document Date'),
    ).toHaveValue('2026-01-15');

    await page.goto(`/visits/${visit.id}`);
    await page.getByRole('button', { name: 'Attach Document' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload Document' });
    await expect(dialog.getByLabel('Document Date')).toHaveValue('2026-03-03');
    await uploadIn(dialog, {
      name: 'referral.pdf',
      mimeType: 'application/pdf',
      buffer: await samplePdf(),
    });
    await page.getByRole('img', { name: 'referral.pdf thumbnail' }).click();
    await expect(page.getByRole('heading', { name: 'referral.pdf' })).toBeVisible();
    await expect(page.getByText('March 3, 2026', { exact: true })).toBeVisible();
  });

  test('/documents filtered to a member without documents says so; an empty account says none yet', async ({
    page,
    user,
  }) => {
    void user;
    await page.goto('/documents');
    await expect(page.getByText('No documents yet')).toBeVisible();

    await addMemberViaApi(page, { name: 'Leo' });
    const baseURL = test.info().project.use.baseURL ?? '';
    const uploaded = await page.request.post('/api/documents?title=Letter&document_type=Letter', {
      data: await samplePdf(),
      headers: { origin: baseURL, 'content-type': 'application/octet-stream' },
    });
    expect(uploaded.status(), await uploaded.text()).toBe(201);
    await page.reload();
    await expect(page.getByRole('img', { name: 'Letter thumbnail' })).toBeVisible();
    await page.getByRole('button', { name: 'Leo' }).click();
    await expect(page.getByText('No documents for Leo')).toBeVisible();
    await expect(page.getByText('No documents yet')).toBeHidden();
    await page.getByLabel('Document Type').selectOption('Imaging');
    await page.getByRole('button', { name: 'All' }).click();
    await expect(page.getByText('No Imaging documents')).toBeVisible();
    await expectAccessible(page);
  });
});
