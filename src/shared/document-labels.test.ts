/** The names of records and documents in the choices, and a record's day, in several zones. */
import { afterEach, describe, expect, it } from 'vitest';
import { attachmentLabel, dayOfRecord, documentChoiceLabel } from './document-labels';
import type { DocumentAttachment } from './documents';

const originalZone = process.env.TZ;
afterEach(() => {
  process.env.TZ = originalZone;
});

const record = (values: Partial<DocumentAttachment>): DocumentAttachment => ({
  record_type: 'visits',
  record_id: 'r1',
  title: 'Check-up',
  title_kind: 'text',
  date: null,
  ...values,
});

describe('attachmentLabel', () => {
  it.each([
    [
      'a visit on its local day',
      'America/New_York',
      record({ date: '2026-03-04T02:30:00.000Z' }),
      'Visit: Check-up (Mar 3, 2026)',
    ],
    [
      'the same visit in Tokyo',
      'Asia/Tokyo',
      record({ date: '2026-03-04T02:30:00.000Z' }),
      'Visit: Check-up (Mar 4, 2026)',
    ],
    [
      'a lab result on its collected date, whatever the zone',
      'Pacific/Auckland',
      record({ record_type: 'labs', title: 'HbA1c', date: '2026-01-15' }),
      'Lab Result: HbA1c (Jan 15, 2026)',
    ],
    [
      'a condition on its page path',
      'UTC',
      record({ record_type: 'history', title: 'Asthma', date: '2019-06-01' }),
      'Condition: Asthma (Jun 1, 2019)',
    ],
    [
      'a contact, which has no date',
      'UTC',
      record({ record_type: 'contacts', title: 'Dr. Osei' }),
      'Contact: Dr. Osei',
    ],
    [
      'a vitals entry, by its time',
      'Europe/Berlin',
      record({
        record_type: 'vitals',
        title: '2026-03-03T08:30:00.000Z',
        title_kind: 'datetime',
        date: '2026-03-03T08:30:00.000Z',
      }),
      'Vitals: 9:30 AM (Mar 3, 2026)',
    ],
  ])('%s', (_name, zone, value, expected) => {
    process.env.TZ = zone;
    expect(attachmentLabel(value)).toBe(expected);
  });
});

describe('documentChoiceLabel', () => {
  it.each([
    [
      { title: 'card.jpg', document_type: 'Insurance Card' as const, document_date: '2026-02-01' },
      'Insurance Card: card.jpg (Feb 1, 2026)',
    ],
    [{ title: 'scan', document_type: 'Other' as const, document_date: null }, 'Other: scan'],
  ])('%j', (document, expected) => {
    expect(documentChoiceLabel(document)).toBe(expected);
  });
});

describe('dayOfRecord', () => {
  it.each([
    ['America/Los_Angeles', '2026-03-04T05:00:00.000Z', '2026-03-03'],
    ['Asia/Tokyo', '2026-03-04T05:00:00.000Z', '2026-03-04'],
    ['Pacific/Auckland', '2026-01-15', '2026-01-15'],
    ['UTC', null, undefined],
  ])('%s %s', (zone, date, expected) => {
    process.env.TZ = zone;
    expect(dayOfRecord(date)).toBe(expected);
  });
});
