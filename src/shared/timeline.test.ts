import { afterEach, describe, expect, it } from 'vitest';
import {
  groupTimeline,
  showsTodayMarker,
  splitUpcomingVisits,
  type TimelineEvent,
} from './timeline';

const originalZone = process.env.TZ;
afterEach(() => {
  process.env.TZ = originalZone;
});

let counter = 0;
function event(
  date: string,
  type: TimelineEvent['type'] = 'note',
  name = `Event ${date}`,
): TimelineEvent {
  counter += 1;
  return {
    id: `id-${counter}`,
    type,
    name,
    date,
    user_id: 'u',
    family_member_id: null,
    family_member_name: null,
    family_member_color: null,
  };
}

describe('groupTimeline', () => {
  it('groups by day, newest day first, labelled MMM d, yyyy', () => {
    const days = groupTimeline([
      event('2026-01-02'),
      event('2026-03-04'),
      event('2026-01-02', 'shot'),
    ]);
    expect(days.map((day) => [day.day, day.label, day.events.length])).toEqual([
      ['2026-03-04', 'Mar 4, 2026', 1],
      ['2026-01-02', 'Jan 2, 2026', 2],
    ]);
  });

  it('puts a visit on its local day, east and west of UTC', () => {
    const visit = event('2026-06-15T23:30:00.000Z', 'visit');
    process.env.TZ = 'Australia/Sydney';
    expect(groupTimeline([visit])[0]?.day).toBe('2026-06-16');
    process.env.TZ = 'America/Chicago';
    expect(groupTimeline([visit])[0]?.day).toBe('2026-06-15');
  });

  it('keeps a day together even when its events arrive on different pages', () => {
    process.env.TZ = 'America/New_York';
    // 02:00 UTC on the 16th is the evening of the 15th in New York.
    const days = groupTimeline([
      event('2026-06-16'),
      event('2026-06-16T02:00:00.000Z', 'visit'),
      event('2026-06-15'),
    ]);
    expect(days.map((day) => [day.day, day.events.map((item) => item.type)])).toEqual([
      ['2026-06-16', ['note']],
      ['2026-06-15', ['visit', 'note']],
    ]);
  });

  it('is empty for no events', () => {
    expect(groupTimeline([])).toEqual([]);
  });
});

describe('showsTodayMarker', () => {
  it('shows when today has no events and the newest day is past', () => {
    expect(showsTodayMarker(groupTimeline([event('2026-06-10')]), '2026-06-15')).toBe(true);
  });
  it('hides when today has events', () => {
    expect(
      showsTodayMarker(groupTimeline([event('2026-06-15'), event('2026-06-10')]), '2026-06-15'),
    ).toBe(false);
  });
  it('hides when the newest day is in the future', () => {
    expect(
      showsTodayMarker(groupTimeline([event('2026-06-20'), event('2026-06-10')]), '2026-06-15'),
    ).toBe(false);
  });
  it('hides with no events at all', () => {
    expect(showsTodayMarker([], '2026-06-15')).toBe(false);
  });
});

describe('splitUpcomingVisits', () => {
  it('takes the visits after today, soonest first, and leaves the rest in order', () => {
    process.env.TZ = 'UTC';
    const later = event('2026-06-20T09:00:00.000Z', 'visit', 'Dentist');
    const soonLate = event('2026-06-16T15:00:00.000Z', 'visit', 'Eye exam');
    const soonEarly = event('2026-06-16T08:00:00.000Z', 'visit', 'Checkup');
    const todayVisit = event('2026-06-15T16:00:00.000Z', 'visit', 'Today visit');
    const futureShot = event('2026-06-18', 'shot', 'Flu shot');
    const past = event('2026-06-10', 'note', 'Letter');
    const { upcoming, rest } = splitUpcomingVisits(
      [later, futureShot, soonLate, soonEarly, todayVisit, past],
      '2026-06-15',
    );
    expect(upcoming.map((day) => [day.day, day.events.map((e) => e.name)])).toEqual([
      ['2026-06-16', ['Checkup', 'Eye exam']],
      ['2026-06-20', ['Dentist']],
    ]);
    expect(rest.map((e) => e.name)).toEqual(['Flu shot', 'Today visit', 'Letter']);
  });

  it('has nothing upcoming when no visit is after today', () => {
    const past = event('2026-06-10T09:00:00.000Z', 'visit');
    expect(splitUpcomingVisits([past], '2026-06-15')).toEqual({ upcoming: [], rest: [past] });
  });
});
