/**
 * Apple Health's readings as vitals entries (decision 0055). A measure a watch or a CGM
 * samples all day (heart rate, blood glucose, oxygen saturation, respiratory rate) becomes
 * one entry per hour by the one rule of sample-hours.ts; every other reading is one entry,
 * and readings of different measures at the same moment (a weight and a height typed
 * together) share one. A blood pressure is the systolic and diastolic of one Correlation (or,
 * outside one, the two of the same moment) in one entry. Each entry's source id is built from
 * what the file says (type, date, value; or the hour), so importing the same export, or a
 * newer one, names the same readings the same way.
 */
import { vitalDefinition, type VitalColumn } from '../../../shared/records/vitals';
import type { FhirValues } from '../../fhir/fhir-source';
import type { ImportedRecord } from '../../fhir/fhir-import';
import { SampleHours } from '../sample-hours';
import { ownCopy, readAppleDate, type AppleDate } from './apple-dates';
import {
  APPLE_MEASURES,
  canonicalReading,
  refusalReason,
  type AppleMeasure,
} from './apple-measures';
import type { AppleRecord } from './export-xml';
import { key, tr } from '../../../shared/i18n/translate';

/** Entries read one per reading, at most: the rest are counted as skipped. */
export const MAX_SINGLE_READINGS = 200_000;

export interface DayRange {
  /** `YYYY-MM-DD`, inclusive. */
  from?: string;
  to?: string;
}

export interface VitalsRead {
  records: ImportedRecord<FhirValues['vital']>[];
  skipped: Record<string, number>;
}

interface Single {
  sourceId: string;
  moment: string;
  values: Partial<Record<VitalColumn, number>>;
  notes?: string;
}

interface HalfPressure {
  date: AppleDate;
  startDate: string;
  /** As written, for the source id. */
  text: string;
  value: number;
}

interface Pressure {
  systolic?: HalfPressure;
  diastolic?: HalfPressure;
}

const SYSTOLIC = 'HKQuantityTypeIdentifierBloodPressureSystolic';
const DIASTOLIC = 'HKQuantityTypeIdentifierBloodPressureDiastolic';
const UNPAIRED = key('Blood pressure readings without their other number');

const idOf = (key: string, startDate: string, value: string) =>
  ownCopy(`apple-health:${key}:${startDate}:${value}`);

/** Gathers an export's readings, in file order, and gives back its vitals entries. */
export class AppleVitals {
  private readonly skipped: Record<string, number> = {};
  private readonly singles: Single[] = [];
  private readonly seen = new Set<string>();
  private readonly hourly = new Map<
    AppleMeasure,
    { samples: SampleHours; firstOf: Map<string, string> }
  >();
  private readonly correlations = new Map<number, Pressure>();
  private readonly loosePressures: { half: HalfPressure; systolic: boolean }[] = [];

  constructor(private readonly range: DayRange = {}) {}

  private skip(reason: string) {
    this.skipped[reason] = (this.skipped[reason] ?? 0) + 1;
  }

  add(record: AppleRecord): void {
    const measure = APPLE_MEASURES.get(record.type);
    if (!measure) return;
    const date = readAppleDate(record.startDate);
    if (!date) {
      this.skip(
        tr('{label} readings with a date Kin Health cannot read', { label: tr(measure.label) }),
      );
      return;
    }
    if (
      (this.range.from && date.day < this.range.from) ||
      (this.range.to && date.day > this.range.to)
    )
      return;
    const value = canonicalReading(measure, record.unit, record.value);
    if (typeof value !== 'number') {
      this.skip(refusalReason(measure, value, record.unit));
      return;
    }
    if (record.type === SYSTOLIC || record.type === DIASTOLIC) {
      const systolic = record.type === SYSTOLIC;
      const half = {
        date,
        startDate: ownCopy(record.startDate),
        text: ownCopy(record.value),
        value,
      };
      if (record.correlation === null) {
        this.loosePressures.push({ half, systolic });
        return;
      }
      const pressure = this.correlations.get(record.correlation) ?? {};
      pressure[systolic ? 'systolic' : 'diastolic'] = half;
      this.correlations.set(record.correlation, pressure);
      return;
    }
    if (measure.hourly) {
      let hours = this.hourly.get(measure);
      if (!hours) {
        hours = { samples: new SampleHours(measure.measure), firstOf: new Map() };
        this.hourly.set(measure, hours);
      }
      hours.samples.add({ at: date.utc, local: date.local, value });
      const hour = date.local.slice(0, 13);
      const first = hours.firstOf.get(hour);
      if (first === undefined || date.utc < first) hours.firstOf.set(hour, date.utc);
      return;
    }
    const sourceId = idOf(measure.key, record.startDate, record.value);
    this.addSingle({
      sourceId,
      moment: date.utc,
      values: { [measure.column]: value },
      ...(measure.note ? { notes: measure.note } : {}),
    });
  }

  private addSingle(single: Single) {
    // An export repeats a reading it holds twice (a Correlation's Records, a synced copy).
    if (this.seen.has(single.sourceId)) return;
    if (this.seen.size >= MAX_SINGLE_READINGS) {
      this.skip(
        tr('Readings beyond the {number} one import reads', {
          number: MAX_SINGLE_READINGS.toLocaleString('en-US'),
        }),
      );
      return;
    }
    this.seen.add(single.sourceId);
    this.singles.push(single);
  }

  private pairPressures() {
    const paired = new Set<string>();
    const pair = (systolic: HalfPressure, diastolic: HalfPressure) => {
      paired.add(idOf('systolic', systolic.startDate, systolic.text));
      paired.add(idOf('diastolic', diastolic.startDate, diastolic.text));
      this.addSingle({
        sourceId: idOf('blood_pressure', systolic.startDate, `${systolic.text}/${diastolic.text}`),
        moment: systolic.date.utc,
        values: { systolic_mmhg: systolic.value, diastolic_mmhg: diastolic.value },
      });
    };
    for (const { systolic, diastolic } of this.correlations.values()) {
      if (systolic && diastolic) pair(systolic, diastolic);
      else this.skip(tr(UNPAIRED));
    }
    // Outside a Correlation (or Apple's copies of its Records): the two of one moment.
    const byMoment = new Map<string, { systolic: HalfPressure[]; diastolic: HalfPressure[] }>();
    for (const { half, systolic } of this.loosePressures) {
      const id = idOf(systolic ? 'systolic' : 'diastolic', half.startDate, half.text);
      if (paired.has(id)) continue;
      paired.add(id);
      const moment = byMoment.get(half.date.utc) ?? { systolic: [], diastolic: [] };
      moment[systolic ? 'systolic' : 'diastolic'].push(half);
      byMoment.set(half.date.utc, moment);
    }
    for (const { systolic, diastolic } of byMoment.values()) {
      if (systolic.length === 1 && diastolic.length === 1) pair(systolic[0]!, diastolic[0]!);
      else
        for (let index = 0; index < systolic.length + diastolic.length; index += 1)
          this.skip(tr(UNPAIRED));
    }
  }

  /** The entries read, each checked by the vitals form's own schema. */
  finish(): VitalsRead {
    this.pairPressures();
    const entries: { sourceId: string; values: Record<string, unknown> }[] = [];
    // Readings of one moment share an entry, unless they measure the same thing twice.
    const atMoment = new Map<string, { ids: string[]; values: Record<string, unknown> }[]>();
    for (const single of this.singles) {
      const groups = atMoment.get(single.moment) ?? [];
      const columns = Object.keys(single.values);
      let group = groups.find((candidate) =>
        columns.every((column) => !(column in candidate.values)),
      );
      if (!group) {
        group = { ids: [], values: { measured_at: single.moment } };
        groups.push(group);
        atMoment.set(single.moment, groups);
      }
      group.ids.push(single.sourceId);
      Object.assign(group.values, single.values);
      if (single.notes) group.values.notes = single.notes;
    }
    for (const groups of atMoment.values()) {
      for (const group of groups) {
        entries.push({ sourceId: group.ids.sort().join(' + '), values: group.values });
      }
    }
    for (const [measure, { samples, firstOf }] of this.hourly) {
      const hourOf = new Map([...firstOf].map(([hour, first]) => [first, hour]));
      for (const hour of samples.entries()) {
        entries.push({
          sourceId: `apple-health:${measure.key}:${hourOf.get(hour.measured_at) ?? hour.measured_at}`,
          values: {
            measured_at: hour.measured_at,
            [measure.column]: hour.value,
            notes: hour.notes,
          },
        });
      }
    }
    const records: VitalsRead['records'] = [];
    for (const { sourceId, values } of entries) {
      const parsed = vitalDefinition.schema.safeParse({ family_member_id: null, ...values });
      if (!parsed.success) {
        const message = parsed.error.issues[0]?.message ?? 'not valid';
        this.skip(tr('Vitals entries the vitals form refuses ({reason})', { reason: message }));
        continue;
      }
      records.push({ source_id: sourceId, values: parsed.data as FhirValues['vital'] });
    }
    records.sort((a, b) => a.values.measured_at.localeCompare(b.values.measured_at));
    return { records, skipped: this.skipped };
  }
}
