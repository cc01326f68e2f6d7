/**
 * What a list says when it has nothing to show (issue 48): with no record at all, SPEC.md's
 * own words ('No upcoming visits', 'No allergies recorded yet', …); filtered to one person
 * who has none while others do, that it is so for that person ('No upcoming visits for
 * Mia'), never the words that would say the family has none.
 */
import type { Page } from '@playwright/test';
import type { RecordType } from '../src/shared/records/catalogue';
import { sampleRecord } from '../src/server/test/factories';
import { addMemberViaApi, createRecordViaApi, expect, expectAccessible, test } from './fixtures';

/** Each list, its words when empty and when Mia has none, and the title of a sample record. */
const lists: { type: RecordType; path: string; empty: string; forMia: string; title: string }[] = [
  {
    type: 'visit',
    path: 'visits',
    empty: 'No upcoming visits',
    forMia: 'No upcoming visits for Mia',
    title: 'Annual checkup',
  },
  {
    type: 'medication',
    path: 'medications',
    empty: 'No current medications',
    forMia: 'No current medications for Mia',
    title: 'Lisinopril',
  },
  {
    type: 'shot',
    path: 'shots',
    empty: 'No upcoming shots',
    forMia: 'No upcoming shots for Mia',
    title: 'Flu vaccine',
  },
  {
    type: 'note',
    path: 'notes',
    empty: 'No notes yet',
    forMia: 'No notes for Mia yet',
    title: 'Referral letter',
  },
  {
    type: 'condition',
    path: 'history',
    empty: 'No health conditions recorded yet',
    forMia: 'No health conditions recorded for Mia yet',
    title: 'Asthma',
  },
  {
    type: 'allergy',
    path: 'allergies',
    empty: 'No allergies recorded yet',
    forMia: 'No allergies recorded for Mia yet',
    title: 'Peanuts',
  },
  {
    type: 'lab_result',
    path: 'labs',
    empty: 'No lab results recorded yet',
    forMia: 'No lab results recorded for Mia yet',
    title: 'LDL Cholesterol',
  },
  {
    type: 'insurance',
    path: 'insurance',
    empty: 'No insurance policies yet',
    forMia: 'No insurance policies for Mia yet',
    title: 'SmileCare',
  },
];

const TIMELINE_EMPTY = 'No health events yet. Tap + to add your first entry.';

async function filterTo(page: Page, name: string) {
  const strip = page.getByRole('group', { name: 'Filter by family member' });
  await strip.getByRole('button', { name, exact: true }).click();
  await expect(strip.getByRole('button', { name, exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
}

test(
  'an empty list keeps SPEC’s words; filtered to a person with nothing, it names them',
  { tag: '@layout' },
  async ({ page, user }) => {
    void user;
    await addMemberViaApi(page, { name: 'Mia' });

    // Nothing at all: SPEC's words, and for Mia the same said of her.
    for (const list of [...lists, { path: '', empty: TIMELINE_EMPTY }]) {
      await page.goto(`/${list.path}`);
      await expect(page.getByText(list.empty, { exact: true })).toBeVisible();
    }

    // Records of the user's own of every type; Mia has none.
    for (const list of lists) {
      const data = sampleRecord(list.type);
      if (list.type === 'shot') data.date_administered = '2030-01-15';
      await createRecordViaApi(page, list.path, data);
    }
    for (const list of lists) {
      await page.goto(`/${list.path}`);
      await expect(page.getByRole('link', { name: new RegExp(list.title) }).first()).toBeVisible();
      await filterTo(page, 'Mia');
      await expect(page.getByText(list.forMia, { exact: true }), list.path).toBeVisible();
      await expect(page.getByText(list.empty, { exact: true }), list.path).toHaveCount(0);
      await filterTo(page, 'All');
      await expect(page.getByText(list.forMia, { exact: true }), list.path).toHaveCount(0);
    }
    await page.goto('/');
    await filterTo(page, 'Mia');
    await expect(page.getByText('No health events for Mia yet', { exact: true })).toBeVisible();
    await expect(page.getByText(TIMELINE_EMPTY, { exact: true })).toHaveCount(0);
    await expectAccessible(page);
  },
);
