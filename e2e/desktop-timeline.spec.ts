/**
 * The timeline at a desk (issue 52): from 1024 px wide, Today's Medications, Vaccines due and
 * the upcoming visits are in a side panel, 'Today', beside the events and sticky as they
 * scroll; under 1024 px the same cards stand above the events again, each once.
 */
import { format } from 'date-fns';
import { createRecordViaApi, expect, expectAccessible, localDay, test } from './fixtures';
import { addMia } from './sample-family';

/** 10:15 AM on the day so many days from today, here. */
const localDate = (offsetDays: number) => new Date(`${localDay(offsetDays)}T10:15`);
const dayLabel = (date: Date) => format(date, 'MMM d, yyyy');

test.describe('at a desk', { tag: '@layout' }, () => {
  test.beforeEach(() => {
    test.skip(test.info().project.name !== 'desktop', 'the side panel is for wide screens');
  });

  test('the timeline has Today’s Medications and the upcoming visits beside the events', async ({
    page,
    user,
  }) => {
    void user;
    // Mia, six, with no shots recorded: her vaccine doses are due, in the panel.
    await addMia(page);
    await createRecordViaApi(page, 'medications', {
      medication_name: 'Lisinopril',
      dosage: '10 mg',
      frequency: 'Daily',
      time_morning: true,
      start_date: localDay(-2),
    });
    await createRecordViaApi(page, 'visits', {
      visit_name: 'Cardiology follow-up',
      visit_date: localDate(3).toISOString(),
    });
    await createRecordViaApi(page, 'visits', {
      visit_name: 'Pediatric checkup',
      visit_date: localDate(-2).toISOString(),
    });
    // Enough days of events for the page to scroll.
    await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        createRecordViaApi(page, 'notes', {
          title: `Note ${index + 1}`,
          note_date: localDay(-3 - index),
        }),
      ),
    );

    await page.goto('/');
    const panel = page.getByRole('complementary', { name: 'Today' });
    const medications = panel.getByRole('region', { name: "Today's Medications" });
    await expect(
      medications.getByRole('button', { name: 'Mark Lisinopril Morning taken' }),
    ).toBeVisible();
    const upcoming = panel.getByRole('region', { name: 'Upcoming visits' });
    await expect(upcoming.getByRole('heading', { name: dayLabel(localDate(3)) })).toBeVisible();
    await expect(upcoming.getByRole('link', { name: /Cardiology follow-up.*Visit/ })).toBeVisible();
    // Her card says her name and how many doses whole, however narrow the panel is.
    const vaccines = panel.getByRole('region', { name: 'Vaccines due' });
    const mia = vaccines.getByRole('link', { name: /^Mia: / });
    const line = mia.getByText(/^Mia · \d+ vaccine doses$/);
    await expect(line).toBeVisible();
    const cut = await line.evaluate((element) => element.scrollWidth > element.clientWidth);
    expect(cut).toBe(false);
    // Moved, not copied: each card once on the page.
    await expect(page.getByRole('link', { name: /Cardiology follow-up/ })).toHaveCount(1);
    await expect(page.getByRole('region', { name: "Today's Medications" })).toHaveCount(1);

    // The events column starts at today; the past visit is in it, beside the panel.
    await expect(page.getByText('No events today')).toBeVisible();
    const past = page.getByRole('region', { name: dayLabel(localDate(-2)) });
    await expect(past.getByRole('link', { name: /Pediatric checkup.*Visit/ })).toBeVisible();
    const events = (await past.boundingBox())!;
    const side = (await panel.boundingBox())!;
    expect(side.x).toBeGreaterThanOrEqual(events.x + events.width);
    expect(side.y).toBeLessThan(events.y + events.height);
    // The page's column is wider than the other screens' for it.
    expect((await page.getByRole('main').boundingBox())!.width).toBeGreaterThan(900);
    await expectAccessible(page);
    await page.screenshot({ path: test.info().outputPath('timeline-1280.png') });

    // Sticky: the events scroll by, the panel stays in view.
    await page.getByRole('link', { name: /Note 20/ }).scrollIntoViewIfNeeded();
    await expect(past).not.toBeInViewport();
    await expect(medications).toBeInViewport();
    await page.screenshot({ path: test.info().outputPath('timeline-1280-scrolled.png') });
    await page.evaluate(() => window.scrollTo(0, 0));

    await page.setViewportSize({ width: 1920, height: 1080 });
    await expect(panel).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('timeline-1920.png') });

    // Under 1024 px the phone's order: the cards above the events, the visit among them.
    await page.setViewportSize({ width: 1000, height: 800 });
    await expect(panel).toHaveCount(0);
    const above = page.getByRole('region', { name: "Today's Medications" });
    await expect(above).toHaveCount(1);
    const visit = page.getByRole('region', { name: dayLabel(localDate(3)) });
    await expect(visit.getByRole('link', { name: /Cardiology follow-up.*Visit/ })).toBeVisible();
    expect((await above.boundingBox())!.y).toBeLessThan((await visit.boundingBox())!.y);
    await expect(page.getByText('No events today')).toHaveCount(0);
  });
});
