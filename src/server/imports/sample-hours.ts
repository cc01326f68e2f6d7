/**
 * Many readings of one measure in a day (a watch's heart rate every few minutes, a CGM's
 * glucose every five) become one vitals entry per hour, by one rule for every kind of file
 * (decision 0055): an hour with one reading keeps it as it was, at its own time; an hour
 * with several becomes one entry at the time of its first reading, whose value is their mean
 * (so the chart draws the hour's level, never a reading that was not taken as one of its
 * points without saying so) and whose notes say how many there were, from when to when, and
 * their lowest and highest, so that a low or a high inside the hour is not lost.
 */
import { formatMeasure, MEASURES, type MeasureName, type UnitSystem } from '../../shared/units';

export interface Sample {
  /** The reading's moment, a UTC timestamp (`2024-01-05T16:12:00.000Z`). */
  at: string;
  /** The same moment on the clock where it was taken: `2024-01-05T08:12`. */
  local: string;
  /** In the measure's canonical unit. */
  value: number;
}

export interface HourEntry {
  /** UTC timestamp: the hour's first reading. */
  measured_at: string;
  value: number;
  /** Null for an hour of one reading. */
  notes: string | null;
  /** How many readings it stands for. */
  readings: number;
}

interface Hour {
  first: string;
  last: string;
  /** The first and last readings' times on the clock where they were taken: `08:12`. */
  from: string;
  to: string;
  sum: number;
  count: number;
  min: number;
  max: number;
}

const round = (value: number, decimals: number) => {
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale;
};

/** Gathers readings of one measure, in any order, and gives back their hours. */
export class SampleHours {
  private readonly hours = new Map<string, Hour>();

  constructor(private readonly measure: MeasureName) {}

  add({ at, local, value }: Sample): void {
    const hour = local.slice(0, 13);
    const time = local.slice(11, 16);
    const seen = this.hours.get(hour);
    if (!seen) {
      this.hours.set(hour, {
        ...{ first: at, last: at, from: time, to: time },
        ...{ sum: value, count: 1, min: value, max: value },
      });
      return;
    }
    if (at < seen.first) [seen.first, seen.from] = [at, time];
    if (at > seen.last) [seen.last, seen.to] = [at, time];
    seen.sum += value;
    seen.count += 1;
    seen.min = Math.min(seen.min, value);
    seen.max = Math.max(seen.max, value);
  }

  get size(): number {
    return this.hours.size;
  }

  /** Each hour's entry, in time order. */
  *entries(): Generator<HourEntry> {
    const spec = MEASURES[this.measure];
    const decimals = 'whole' in spec && spec.whole ? 0 : 1;
    // The notes keep the readings as they were taken: in the measure's stored unit.
    const canonicalSystem: UnitSystem = spec.units.metric.ucum === spec.canonical ? 'metric' : 'us';
    const sorted = [...this.hours.values()].sort((a, b) => a.first.localeCompare(b.first));
    for (const hour of sorted) {
      if (hour.count === 1) {
        yield { measured_at: hour.first, value: hour.sum, notes: null, readings: 1 };
        continue;
      }
      const shown = (value: number) => formatMeasure(this.measure, value, canonicalSystem);
      yield {
        measured_at: hour.first,
        value: round(hour.sum / hour.count, decimals),
        notes:
          `Mean of ${hour.count} readings from ${hour.from} to ${hour.to} ` +
          `(lowest ${shown(hour.min)}, highest ${shown(hour.max)})`,
        readings: hour.count,
      };
    }
  }
}
