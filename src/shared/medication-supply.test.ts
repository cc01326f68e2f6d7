import { describe, expect, it } from 'vitest';
import { addDays } from './date-values';
import { dueSlots, type Schedule, type ScheduledSlot } from './doses';
import { needsNewPrescription, runsOut, supplyForecast, type Supply } from './medication-supply';

const twiceDaily: Schedule & Supply = {
  frequency: 'Twice Daily',
  start_date: '2026-10-25',
  end_date: null,
  time_morning: true,
  time_noon: false,
  time_evening: true,
  time_night: false,
  quantity_on_hand: 30,
  dose_amount: 1,
  refills_left: 2,
  prescription_ends: null,
};

/**
 * The supply lived through dose by dose, as the user marks them: a taken dose takes a dose
 * amount, a skipped one nothing. Answers the first day a dose was due that the supply could
 * not cover, and every morning's forecast on the way.
 */
function live(
  medication: Schedule & Supply,
  skips: ReadonlySet<string>,
): { out: string; forecasts: Map<string, string | null> } {
  let quantity = medication.quantity_on_hand!;
  const amount = medication.dose_amount ?? 1;
  const forecasts = new Map<string, string | null>();
  for (let day = medication.start_date!; ; day = addDays(day, 1)) {
    const marked = new Set<ScheduledSlot>();
    for (const slot of dueSlots(medication, day)) {
      forecasts.set(
        `${day} ${slot}`,
        runsOut({ ...medication, quantity_on_hand: quantity }, day, marked),
      );
      if (skips.has(`${day} ${slot}`)) {
        marked.add(slot);
        continue;
      }
      if (quantity + 1e-9 < amount) return { out: day, forecasts };
      quantity -= amount;
      marked.add(slot);
    }
  }
}

describe('runsOut', () => {
  it('runs 30 pills taken twice a day out on the sixteenth day', () => {
    expect(runsOut(twiceDaily, '2026-10-25')).toBe('2026-11-09');
  });

  it('is exact before every dose, across both summer-time ends and a skipped dose', () => {
    // Europe leaves summer time on Oct 25, the United States on Nov 1: the forecast is in
    // calendar days of the user's zone, so neither moves it.
    const skips = new Set(['2026-10-28 Evening']);
    const { out, forecasts } = live(twiceDaily, skips);
    // One dose skipped: the 30 pills cover the morning of Nov 9 too, and run out that evening.
    expect(out).toBe('2026-11-09');
    for (const [, forecast] of forecasts) expect(forecast).toBe(out);
  });

  it('moves a day later when a whole day is skipped', () => {
    const skips = new Set(['2026-10-28 Morning', '2026-10-28 Evening']);
    const { out, forecasts } = live(twiceDaily, skips);
    expect(out).toBe('2026-11-10');
    // Before the skips the forecast said Nov 9; from the skip on, Nov 10.
    expect(forecasts.get('2026-10-27 Evening')).toBe('2026-11-09');
    expect(forecasts.get('2026-10-29 Morning')).toBe('2026-11-10');
  });

  it('agrees with the dose-by-dose count for every schedule, amount and start', () => {
    const schedules: (Schedule & Supply)[] = [];
    for (const frequency of ['Daily', 'Twice Daily', 'Weekly']) {
      for (const [morning, noon, evening, night] of [
        [true, false, false, false],
        [true, false, true, false],
        [true, true, true, true],
        [false, false, false, false],
      ] as const) {
        for (const [quantity, amount] of [
          [0, 1],
          [1, 1],
          [7, 2],
          [30, 1],
          [10, 0.5],
          [9.5, 1.5],
        ] as const) {
          schedules.push({
            ...twiceDaily,
            frequency,
            time_morning: morning,
            time_noon: noon,
            time_evening: evening,
            time_night: night,
            quantity_on_hand: quantity,
            dose_amount: amount,
          });
        }
      }
    }
    for (const medication of schedules) {
      const { out, forecasts } = live(medication, new Set());
      for (const [dose, forecast] of forecasts) {
        expect(forecast, `${JSON.stringify(medication)} at ${dose}`).toBe(out);
      }
    }
  });

  it('counts from a start in the future', () => {
    expect(runsOut({ ...twiceDaily, quantity_on_hand: 4 }, '2026-10-01')).toBe('2026-10-27');
  });

  it('counts only the doses of today not yet marked', () => {
    const evening = new Set<ScheduledSlot>(['Morning']);
    expect(runsOut({ ...twiceDaily, quantity_on_hand: 1 }, '2026-11-01', evening)).toBe(
      '2026-11-02',
    );
    expect(runsOut({ ...twiceDaily, quantity_on_hand: 1 }, '2026-11-01')).toBe('2026-11-01');
  });

  it('tells nothing it cannot justify', () => {
    expect(runsOut({ ...twiceDaily, quantity_on_hand: null }, '2026-11-01')).toBeNull();
    expect(runsOut({ ...twiceDaily, frequency: 'As Needed' }, '2026-11-01')).toBeNull();
    expect(runsOut({ ...twiceDaily, frequency: null }, '2026-11-01')).toBeNull();
    // It ends before it would run out.
    expect(runsOut({ ...twiceDaily, end_date: '2026-11-05' }, '2026-10-25')).toBeNull();
    expect(runsOut({ ...twiceDaily, end_date: '2026-11-09' }, '2026-10-25')).toBe('2026-11-09');
    expect(
      runsOut({ ...twiceDaily, frequency: 'Weekly', start_date: null }, '2026-11-01'),
    ).toBeNull();
  });
});

describe('needsNewPrescription', () => {
  it('asks for a new prescription with no refills left, or one ending before the pills do', () => {
    expect(
      needsNewPrescription({ ...twiceDaily, refills_left: 0 }, '2026-11-09', '2026-11-01'),
    ).toBe(true);
    expect(needsNewPrescription(twiceDaily, '2026-11-09', '2026-11-01')).toBe(false);
    expect(
      needsNewPrescription(
        { ...twiceDaily, prescription_ends: '2026-11-08' },
        '2026-11-09',
        '2026-11-01',
      ),
    ).toBe(true);
    expect(
      needsNewPrescription(
        { ...twiceDaily, prescription_ends: '2026-11-20' },
        '2026-11-09',
        '2026-11-01',
      ),
    ).toBe(false);
    expect(
      needsNewPrescription({ ...twiceDaily, prescription_ends: '2026-10-31' }, null, '2026-11-01'),
    ).toBe(true);
  });

  it('says nothing of a medication whose supply is not kept', () => {
    const unkept = { ...twiceDaily, quantity_on_hand: null, refills_left: 0 };
    expect(supplyForecast(unkept, '2026-11-01', new Set()).new_prescription).toBe(false);
  });
});
