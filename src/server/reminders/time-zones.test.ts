/** Wall-clock times in a time zone: the day an instant falls on, and a time's instant. */
import { describe, expect, it } from 'vitest';
import { clockTimeIn, dayIn, instantOf } from './time-zones';

describe('times in a time zone', () => {
  it('finds the instant of a wall-clock time, either side of a change of clocks', () => {
    expect(instantOf('America/New_York', '2026-03-07', '08:00').toISOString()).toBe(
      '2026-03-07T13:00:00.000Z',
    );
    expect(instantOf('America/New_York', '2026-03-09', '08:00').toISOString()).toBe(
      '2026-03-09T12:00:00.000Z',
    );
    expect(instantOf('Europe/Berlin', '2026-10-25', '22:00').toISOString()).toBe(
      '2026-10-25T21:00:00.000Z',
    );
    expect(instantOf('Asia/Kolkata', '2026-06-01', '12:00').toISOString()).toBe(
      '2026-06-01T06:30:00.000Z',
    );
    expect(instantOf('UTC', '2026-06-01', '00:00').toISOString()).toBe('2026-06-01T00:00:00.000Z');
  });

  it('says which day an instant is on there, and its time of day', () => {
    const instant = new Date('2026-06-01T02:30:00.000Z');
    expect(dayIn('America/Los_Angeles', instant)).toBe('2026-05-31');
    expect(dayIn('Asia/Tokyo', instant)).toBe('2026-06-01');
    expect(clockTimeIn('America/Los_Angeles', instant)).toBe('7:30 PM');
  });
});
