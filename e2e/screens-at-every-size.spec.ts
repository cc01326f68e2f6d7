/**
 * The main screens at a phone's size and a desk's two (issue 52, item 7): each one shown to a
 * family with a few months of records, checked with axe at 390×844, 1280×800 and 1920×1080.
 * With SCREENSHOTS=1 each is also kept as `docs/screenshots/{screen}-{size}.png` (the
 * README's pictures); otherwise in the test's own output.
 */
import path from 'node:path';
import type { Page } from '@playwright/test';
import { createRecordViaApi, expect, expectAccessible, test } from './fixtures';
import { addA1cResults, addAmoxicillin, addEarache, addMia, daysAgo } from './sample-family';

const SIZES = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'wide', width: 1920, height: 1080 },
] as const;

/** A family with a few months of records: Mia's visits, a medication, a symptom, labs, vitals. */
async function seedFamily(page: Page) {
  const mia = await addMia(page);
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
  const amoxicillin = await addAmoxicillin(page, mia.id, '250 mg');
  await addEarache(page, mia.id);
  await addA1cResults(page, 'Hemoglobin A1c', ['5.6', '5.5', '5.3']);
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
