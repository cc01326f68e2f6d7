/**
 * The sample family of the tests that picture or read every main screen (every size, every
 * language): Mia, six, with a medication taken twice a day, an earache and HbA1c results,
 * dated from today so that each screen shows them as current.
 */
import type { Page } from '@playwright/test';
import { addMemberViaApi, createRecordViaApi } from './fixtures';

const DAY_MS = 86_400_000;
export const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);
/** `YYYY-MM-DD` of a date, as the record forms send a day. */
export const day = (date: Date) => date.toISOString().slice(0, 10);

export const addMia = (page: Page) =>
  addMemberViaApi(page, {
    name: 'Mia',
    date_of_birth: '2019-11-06',
    sex: 'female',
    color: '#ec4899',
  });

/** Amoxicillin twice a day since three days ago: 14 on hand, one refill left. */
export const addAmoxicillin = (page: Page, memberId: string, dosage: string) =>
  createRecordViaApi(page, 'medications', {
    medication_name: 'Amoxicillin',
    dosage,
    frequency: 'Twice Daily',
    time_morning: true,
    time_evening: true,
    start_date: day(daysAgo(3)),
    quantity_on_hand: 14,
    refills_left: 1,
    family_member_id: memberId,
  });

/** An earache of severity 6, begun two days ago. */
export const addEarache = (page: Page, memberId: string) =>
  createRecordViaApi(page, 'symptoms', {
    symptom: 'Earache',
    severity: 6,
    started_at: daysAgo(2).toISOString(),
    family_member_id: memberId,
  });

/** The account holder's HbA1c results, newest first: 30 days ago, then every 90 days before. */
export async function addA1cResults(page: Page, testName: string, results: readonly string[]) {
  for (const [index, result] of results.entries()) {
    await createRecordViaApi(page, 'labs', {
      test_name: testName,
      result,
      unit: '%',
      range_high: '5.7',
      collected_date: day(daysAgo(30 + index * 90)),
    });
  }
}
