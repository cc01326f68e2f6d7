/**
 * The main screens at a phone's size and a desk's two (issue 52, item 7): each one shown to a
 * family with a few months of records, checked with axe at 390×844, 1280×800 and 1920×1080.
 * With SCREENSHOTS=1 each is also kept as `docs/screenshots/{screen}-{size}.png` (the
 * README's pictures); otherwise in the test's own output.
 */
import path from 'node:path';
import type { Page } from '@playwright/test';
import { addMemberViaApi, createRecordViaApi, expect, expectAccessible, test } from './fixtures';

const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'wide', width: 1920, height: 1080 },
] as const;

const DAY_MS = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);
const day = (date: Date) => date.toISOString().slice(0, 10);

/** A family with a few months of records: Mia's visits, a medication, a symptom, labs, vitals. */
async function seedFamily(page: Page) {
  const mia = await addMemberViaApi(page, {
    name: 'Mia',
    date_of_birth: '2019-11-06',
    sex: 'female',
    color: '#ec4899',
  });
  const visits = [];
  for (const [name, days, doctor] of [
    ['Pediatric checkup', 12, 'Dr. Lena Park'],
    ['Ear infection follow-up', 40, 'Dr. Lena Park'],
    ['Dental cleaning', 75, 'Dr. Omar Haddad'],
  ] as const) {
    visits.push(
      await createRecordViaApi(page, 'visits', {
        visit_name: name,
        visit_date: daysAgo(days).toISOString(),
        doctor_name: doctor,
        family_member_id: mia.id,
      }),
    );
  }
  const amoxicillin = await createRecordViaApi(page, 'medications', {
    medication_name: 'Amoxicillin',
    dosage: '250 mg',
    frequency: 'Twice Daily',
    time_morning: true,
    time_evening: true,
    start_date: day(daysAgo(3)),
    quantity_on_hand: 14,
    refills_left: 1,
    family_member_id: mia.id,
  });
  await createRecordViaApi(page, 'symptoms', {
    symptom: 'Earache',
    severity: 6,
    started_at: daysAgo(2).toISOString(),
    family_member_id: mia.id,
  });
  for (const [index, result] of ['5.6', '5.5', '5.3'].entries()) {
    await createRecordViaApi(page, 'labs', {
      test_name: 'Hemoglobin A1c',
      result,
      unit: '%',
      range_high: '5.7',
      collected_date: day(daysAgo(30 + index * 90)),
    });
  }
  for (let week = 0; week < 12; week += 1) {
    await createRecordViaApi(page, 'vitals', {
      measured_at: daysAgo(week * 7).toISOString(),
      weight_kg: 72.5 - week * 0.3,
      systolic_mmhg: 118 + (week % 3),
      diastolic_mmhg: 78,
    });
  }

  return [
    { name: 'timeline', path: '/' },
    { name: 'list', path: '/list' },
    { name: 'visit', path: `/visits/${visits[0]!.id}` },
    { name: 'labs', path: '/labs' },
    { name: 'vitals', path: '/vitals' },
    { name: 'documents', path: '/documents' },
    { name: 'share', path: '/share' },
    { name: 'medication', path: `/medications/${amoxicillin.id}` },
    { name: 'symptoms', path: '/symptoms' },
    { name: 'emergency-card', path: `/emergency-card/${mia.id}` },
  ];
}

test.describe('every main screen at every size', { tag: '@layout' }, () => {
  test.beforeEach(() => {
    test.skip(test.info().project.name !== 'desktop', 'the sizes are set here, once');
  });

  for (const size of SIZES) {
    // One test a size, each with its own family: thirty screens with axe in one test took
    // over four minutes on a slow two-core machine.
    test(`passes axe at ${size.width} px wide, and is pictured`, async ({ page, user }) => {
      test.setTimeout(180_000);
      void user;
      const screens = await seedFamily(page);
      const keep = process.env.SCREENSHOTS === '1';
      await page.setViewportSize({ width: size.width, height: size.height });
      for (const screen of screens) {
        await page.goto(screen.path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        // What loads after the heading (lists, charts) is in the picture.
        await page.waitForLoadState('networkidle');
        await expectAccessible(page);
        const file = `${screen.name}-${size.name}.png`;
        await page.screenshot({
          path: keep ? path.join('docs', 'screenshots', file) : test.info().outputPath(file),
        });
      }
    });
  }
});
