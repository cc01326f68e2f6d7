/**
 * Reading documents at a desk (CONTRACT §6 'Desktop', issue 52): from 1024 px wide a
 * document's page shows the document large beside what it is (its type, date, person, the
 * records it is attached to, its text), and a record's page its documents' thumbnails beside
 * its details; under 1024 px both stay one column, as on a phone.
 */
import type { Page } from '@playwright/test';
import { gpsPhoto, samplePdf } from '../src/server/documents/fixtures/sample-files';
import { createRecordViaApi, expect, expectAccessible, test } from './fixtures';
import { boxOf, expectBelow, expectSideBySide } from './layout';

/** Screenshots of the page at 1280×800 and 1920×1080, for a person to look at. */
async function screenshots(page: Page, name: string) {
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 1920, height: 1080 },
  ]) {
    await page.setViewportSize(viewport);
    await page.screenshot({
      path: test.info().outputPath(`${name}-${viewport.width}.png`),
      fullPage: true,
    });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test.describe('at a desk', { tag: '@layout' }, () => {
  test.beforeEach(() => {
    test.skip(test.info().project.name !== 'desktop', 'the two columns are for wide screens');
  });

  test("a visit's document: its thumbnail beside the visit, and its page the document beside its details", async ({
    page,
    user,
  }) => {
    void user;
    const visit = await createRecordViaApi(page, 'visits', {
      visit_name: 'Check-up',
      visit_date: '2026-03-04T15:00:00.000Z',
      notes: 'Knee pain after running; an X-ray letter to follow.',
    });
    await page.goto(`/visits/${visit.id}`);
    await page.getByRole('button', { name: 'Attach Document' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload Document' });
    await dialog.getByLabel('File').setInputFiles({
      name: 'knee-letter.jpg',
      mimeType: 'image/jpeg',
      buffer: await gpsPhoto({ width: 640, height: 880 }),
    });
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await expect(dialog).toBeHidden();

    const details = page.locator('main dl');
    const thumbnail = page.getByRole('img', { name: 'knee-letter.jpg thumbnail' });
    await expect(thumbnail).toBeVisible();
    await expectSideBySide(details, thumbnail);
    await expectSideBySide(
      page.getByRole('heading', { name: 'Check-up' }),
      page.getByRole('button', { name: 'Attach Document' }),
    );
    await expectAccessible(page);
    await screenshots(page, 'visit');
    // Under 1024 px the documents are under the visit, as on a phone.
    await page.setViewportSize({ width: 1000, height: 800 });
    await expectBelow(details, thumbnail);
    await page.setViewportSize({ width: 1280, height: 800 });

    await thumbnail.click();
    await expect(page.getByRole('heading', { name: 'knee-letter.jpg' })).toBeVisible();
    const view = page.getByRole('img', { name: 'knee-letter.jpg', exact: true });
    const attachedTo = page.getByRole('link', { name: 'Visit: Check-up (Mar 4, 2026)' });
    await expect(view).toBeVisible();
    await expectSideBySide(view, page.locator('main dl'));
    await expectSideBySide(view, attachedTo);
    await expectSideBySide(view, page.getByRole('heading', { name: 'Text' }));
    // The whole page is seen at once, in a column wider than a record's.
    const viewBox = await boxOf(view);
    expect(viewBox.y + viewBox.height).toBeLessThanOrEqual(800);
    expect(viewBox.width).toBeGreaterThan(500);
    await expectAccessible(page);
    await screenshots(page, 'image-document');
    // Zoomed, the page is as wide as it is zoomed to, and scrolls in its frame.
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(async () => (await boxOf(view)).width).toBeGreaterThan(viewBox.width * 2);
    await page.getByRole('button', { name: 'Zoom out' }).click();
    await expect.poll(async () => (await boxOf(view)).width).toBe(viewBox.width);

    await page.setViewportSize({ width: 1000, height: 800 });
    await expectBelow(view, page.locator('main dl'));
    await page.setViewportSize({ width: 1280, height: 800 });
    await attachedTo.click();
    await expect(page).toHaveURL(`/visits/${visit.id}`);
  });

  test("a PDF's page: the browser's viewer beside its details", async ({ page, user }) => {
    void user;
    const baseURL = test.info().project.use.baseURL ?? '';
    const uploaded = await page.request.post(
      '/api/documents?title=Referral&document_type=Referral&document_date=2026-02-10',
      {
        data: await samplePdf(),
        headers: { origin: baseURL, 'content-type': 'application/octet-stream' },
      },
    );
    expect(uploaded.status(), await uploaded.text()).toBe(201);
    const { id } = (await uploaded.json()) as { id: string };
    await page.goto(`/documents/${id}`);
    await expect(page.getByRole('heading', { name: 'Referral', level: 1 })).toBeVisible();
    const view = page.locator('iframe[title="Referral"]');
    await expect(view).toBeVisible();
    await expectSideBySide(view, page.locator('main dl'));
    await expect(page.getByText('February 10, 2026', { exact: true })).toBeVisible();
    await expectAccessible(page);
    await screenshots(page, 'pdf-document');
  });
});
