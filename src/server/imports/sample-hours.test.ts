import { describe, expect, it } from 'vitest';
import { SampleHours } from './sample-hours';

describe('readings by the hour', () => {
  it('keeps an hour of one reading as it was, and makes several one entry with their mean, range and count', () => {
    const hours = new SampleHours('heart_rate');
    hours.add({ at: '2024-01-05T16:40:00.000Z', local: '2024-01-05T08:40', value: 90 });
    hours.add({ at: '2024-01-05T16:12:00.000Z', local: '2024-01-05T08:12', value: 61 });
    hours.add({ at: '2024-01-05T16:58:00.000Z', local: '2024-01-05T08:58', value: 118 });
    hours.add({ at: '2024-01-05T18:05:00.000Z', local: '2024-01-05T10:05', value: 72 });
    expect([...hours.entries()]).toEqual([
      {
        measured_at: '2024-01-05T16:12:00.000Z',
        value: 90,
        notes: 'Mean of 3 readings from 08:12 to 08:58 (lowest 61 /min, highest 118 /min)',
        readings: 3,
      },
      { measured_at: '2024-01-05T18:05:00.000Z', value: 72, notes: null, readings: 1 },
    ]);
  });

  it('states glucose in the unit it is kept in, to one decimal', () => {
    const hours = new SampleHours('blood_glucose');
    hours.add({ at: '2024-01-05T08:00:00.000Z', local: '2024-01-05T08:00', value: 100 });
    hours.add({ at: '2024-01-05T08:05:00.000Z', local: '2024-01-05T08:05', value: 101 });
    const [entry] = [...hours.entries()];
    expect(entry?.value).toBe(100.5);
    expect(entry?.notes).toBe(
      'Mean of 2 readings from 08:00 to 08:05 (lowest 100 mg/dL, highest 101 mg/dL)',
    );
  });
});
