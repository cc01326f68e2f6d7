import { format } from 'date-fns';
import { addMemberViaApi, createRecordViaApi, expect, expectAccessible, test } from './fixtures';

function localDate(offsetDays: number): Date {
  const date = new Date();
  date.setDate(date.getDate() + offsetDays);
  date.setHours(10, 15, 0, 0);
  return date;
}
const calendar = (date: Date) => format(date, 'yyyy-MM-dd');
const dayLabel = (date: Date) => format(date, 'MMM d, yyyy');

test('the timeline groups events by day, filters by member and opens each event', async ({
  page,
  user,
}) => {
  void user;
  const leo = await addMemberViaApi(page, { name: 'Leo', color: '#3b82f6' });
  const ana = await addMemberViaApi(page, { name: 'Ana', color: '#ec4899' });
  const twoDaysAgo = localDate(-2);
  const lastWeek = localDate(-7);
  const visit = await createRecordViaApi(page, 'visits', {
    visit_name: 'Pediatric checkup',
    visit_date: twoDaysAgo.toISOString(),
    family_member_id: leo.id,
  });
  await createRecordViaApi(page, 'medications', {
    medication_name: 'Amoxicillin',
    start_date: calendar(twoDaysAgo),
    family_member_id: leo.id,
  });
  await createRecordViaApi(page, 'shots', {
    shot_name: 'Flu vaccine',
    date_administered: calendar(lastWeek),
    family_member_id: ana.id,
  });
  await createRecordViaApi(page, 'notes', {
    title: 'Discharge letter',
    note_date: calendar(lastWeek),
  });
  await createRecordViaApi(page, 'history', {
    condition_name: 'Hypertension',
    diagnosis_date: calendar(lastWeek),
    family_member_id: ana.id,
  });
  await createRecordViaApi(page, 'insurance', { provider_name: 'Not on the timeline' });

  await page.goto('/');
  // Today has nothing and the newest day is past: the marker comes first.
  await expect(page.getByText(`Today - ${dayLabel(new Date())}`)).toBeVisible();
  await expect(page.getByText('No events today')).toBeVisible();

  const recent = page.getByRole('region', { name: dayLabel(twoDaysAgo) });
  const older = page.getByRole('region', { name: dayLabel(lastWeek) });
  await expect(recent.getByRole('link')).toHaveCount(2);
  await expect(older.getByRole('link')).toHaveCount(3);
  await expect(recent.getByRole('link', { name: /Pediatric checkup.*Visit/ })).toBeVisible();
  await expect(recent.getByRole('link', { name: /Amoxicillin.*Medication/ })).toBeVisible();
  await expect(older.getByRole('link', { name: /Flu vaccine.*Shot/ })).toBeVisible();
  await expect(older.getByRole('link', { name: /Discharge letter.*Note/ })).toBeVisible();
  await expect(older.getByRole('link', { name: /Hypertension.*Condition/ })).toBeVisible();
  await expect(page.getByText('Not on the timeline')).toHaveCount(0);
  // Newest day first.
  const headings = await page.getByRole('heading', { level: 2 }).allTextContents();
  expect(headings.indexOf(dayLabel(twoDaysAgo))).toBeLessThan(headings.indexOf(dayLabel(lastWeek)));
  await expectAccessible(page);

  await page.getByRole('button', { name: 'Ana' }).click();
  await expect(page.getByRole('button', { name: 'Ana' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('button', { name: 'All' })).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByRole('link', { name: /Flu vaccine/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /Hypertension/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /Pediatric checkup/ })).toHaveCount(0);
  await expect(page.getByRole('link', { name: /Discharge letter/ })).toHaveCount(0);

  await page.getByRole('button', { name: 'All' }).click();
  await page.getByRole('link', { name: /Pediatric checkup/ }).click();
  await expect(page).toHaveURL(new RegExp(`/visits/${visit.id}$`));
  await expect(page.getByRole('heading', { name: 'Pediatric checkup' })).toBeVisible();
  await page.goBack();
  await page.getByRole('link', { name: /Hypertension/ }).click();
  await expect(page).toHaveURL(/\/history\/[0-9a-f-]{36}$/);
});

test('the timeline of a new user explains what to do', async ({ page, user }) => {
  void user;
  await page.goto('/');
  await expect(
    page.getByText('No health events yet. Tap + to add your first entry.'),
  ).toBeVisible();
  await expect(page.getByText('No events today')).toHaveCount(0);
});

test(
  'the timeline loads earlier events as the user scrolls',
  { tag: '@layout' },
  async ({ page, user }) => {
    void user;
    const base = test.info().project.use.baseURL ?? '';
    const requests = [];
    for (let day = 1; day <= 70; day += 1) {
      requests.push(
        page.request.post('/api/notes', {
          data: {
            title: `Note ${String(day).padStart(2, '0')}`,
            note_date: calendar(localDate(-day)),
          },
          headers: { origin: base },
        }),
      );
    }
    await Promise.all(requests);
    await page.goto('/');
    await expect(page.getByRole('link', { name: /Note 01/ })).toBeVisible();
    await expect(page.getByRole('link', { name: /Note 70/ })).toHaveCount(0);
    await page.getByRole('link', { name: /Note 50/ }).scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, 20_000);
    await expect(page.getByRole('link', { name: /Note 70/ })).toBeVisible();
    await expect(page.getByRole('link', { name: /Note \d\d/ })).toHaveCount(70);
  },
);
