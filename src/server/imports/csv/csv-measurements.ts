/**
 * A CSV of measurements (CONTRACT §6): each row one moment's vitals, each measure in its
 * column's unit (units.ts converts it to the stored one), checked as the vitals form checks
 * it (the measure's plausible range, in the file's unit; Systolic with Diastolic; Glucose
 * Timing with a Blood Glucose). A cell that does not read makes its row a problem, named by
 * line and column; the rest of the file still reads.
 */
import { GLUCOSE_TIMINGS, vitalDefinition, type VitalColumn } from '../../../shared/records/vitals';
import { MEASURES, outOfRangeMessage, plausibleRange, toCanonical } from '../../../shared/units';
import type { ReadOptions } from '../file-readers';
import { DatedRows } from './csv-dated-rows';
import type { MeasureColumn, MeasurementHeader } from './csv-header';
import type { CsvRow } from './csv-rows';
import { issuesOf, quoted, type CsvReading } from './csv-result';
import { inDateRange, OUTSIDE_DATES } from './csv-range';
import { tr } from '../../../shared/i18n/translate';

/** A cell's number, a decimal comma read as a point; NaN when it is none; null when empty. */
export function numberOf(text: string): number | null {
  const value = text.trim();
  if (value === '') return null;
  return /^[-+]?(\d+([.,]\d+)?|[.,]\d+)$/.test(value) ? Number(value.replace(',', '.')) : NaN;
}

/** One measure's cell, in the stored unit, or why it cannot be. */
function measureOf(cell: MeasureColumn, text: string): number | null | { problem: string } {
  const number = numberOf(text);
  if (number === null) return null;
  const { measure, label, system } = cell;
  if (Number.isNaN(number))
    return {
      problem: tr('{column} {value} is not a number', {
        column: cell.header,
        value: quoted(text.trim()),
      }),
    };
  if ('whole' in MEASURES[measure] && !Number.isInteger(number)) {
    return {
      problem: tr('{column} {value} is not a whole number', {
        column: cell.header,
        value: quoted(text.trim()),
      }),
    };
  }
  const canonical = toCanonical(measure, number, system);
  const { min, max } = MEASURES[measure];
  if (canonical < min || canonical > max) {
    const hint =
      measure === 'blood_glucose' &&
      system === 'metric' &&
      number > plausibleRange(measure, system).max
        ? ` ${tr("(a column in mg/dL is named 'Blood Glucose (mg/dL)')")}`
        : '';
    return {
      problem:
        tr('{message}: it is {value}', {
          message: outOfRangeMessage(label, measure, system),
          value: quoted(text.trim()),
        }) + hint,
    };
  }
  return canonical;
}

type RowValues = Partial<Record<VitalColumn, number>> & { glucose_timing?: string; notes?: string };

/** Reads a measurements CSV's rows into vitals entries. */
export class MeasurementRows {
  private readonly rows: DatedRows<RowValues>;

  constructor(
    private readonly header: MeasurementHeader,
    private readonly reading: CsvReading,
    options: ReadOptions,
    timeZone: string,
  ) {
    this.rows = new DatedRows(header.date.header, reading, timeZone, (line, moment, values) => {
      if (!inDateRange(moment.local, options)) return reading.skip(tr(OUTSIDE_DATES));
      const parsed = vitalDefinition.schema.safeParse({
        measured_at: moment.at,
        family_member_id: null,
        ...values,
      });
      if (!parsed.success) return reading.problem(line, issuesOf(parsed.error));
      reading.records.vital.push({
        source_id: reading.sourceId(`csv:vital:${moment.at}`),
        values: parsed.data,
      });
    });
  }

  row({ line, fields }: CsvRow): void {
    const cell = (index: number | null) => (index === null ? '' : (fields[index] ?? '').trim());
    this.reading.unread(fields, this.header.unread);
    this.rows.add(line, cell(this.header.date.index), () => {
      const values: RowValues = {};
      const problems: string[] = [];
      for (const measure of this.header.measures) {
        const value = measureOf(measure, cell(measure.index));
        if (value === null) continue;
        if (typeof value === 'number') values[measure.column] = value;
        else problems.push(value.problem);
      }
      const timingText = cell(this.header.glucoseTiming);
      if (timingText) {
        const timing = GLUCOSE_TIMINGS.find(
          (name) => name.toLowerCase() === timingText.toLowerCase(),
        );
        if (timing) values.glucose_timing = timing;
        else {
          problems.push(
            tr('{column} {value} is not one of {choices}', {
              column: 'Glucose Timing',
              value: quoted(timingText),
              choices: GLUCOSE_TIMINGS.join(', '),
            }),
          );
        }
      }
      const notes = cell(this.header.notes);
      if (notes) values.notes = notes;
      if (problems.length === 0) return values;
      this.reading.problem(line, problems.join('; '));
      return null;
    });
  }

  /** Reads the rows whose dates waited for the whole file; a refusal when its dates do not tell. */
  finish(): { refusal: string } | null {
    return this.rows.finish();
  }
}
