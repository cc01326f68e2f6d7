/**
 * Dexcom Clarity's CSV export: a header row ('Index, Timestamp (YYYY-MM-DDThh:mm:ss), Event
 * Type, …, Glucose Value (mg/dL) or (mmol/L), …'), then rows of the patient ('FirstName',
 * 'LastName', 'DateOfBirth', in 'Patient Info') and of the devices, the sensor and the alert
 * settings (rows with no time, passed over), then the events, each at its time. Its
 * sensor readings ('EGV', every five minutes) become blood glucose entries by the one rule
 * for many readings (SampleHours: an hour of readings is one entry, its notes the count,
 * lowest and highest). Times are written without a zone: they are on the user's clock.
 *
 * A reading beyond the sensor's range is written 'Low' or 'High' (decision 0056): it is
 * counted in its hour at the sensor's limit (40 or 400 mg/dL), so a night's low still shows
 * on the chart, and the hour's notes say how many readings were beyond the limit, so the
 * limit is never taken for a measured value. Other events (insulin, carbs, exercise,
 * calibrations) are not kept by Kin Health and are counted as skipped, by type.
 */
import { vitalDefinition } from '../../../shared/records/vitals';
import { MEASURES, formatMeasure, toCanonical } from '../../../shared/units';
import { SampleHours } from '../sample-hours';
import type { FilePatient, ReadOptions } from '../file-readers';
import { clockOf, momentOf, readDate } from './csv-dates';
import type { DexcomHeader } from './csv-header';
import { numberOf } from './csv-measurements';
import { inDateRange, OUTSIDE_DATES } from './csv-range';
import type { CsvRow } from './csv-rows';
import { issuesOf, quoted, type CsvReading } from './csv-result';
import { tr } from '../../../shared/i18n/translate';

/** The sensor's limits, in mg/dL: Dexcom's G6 and G7 read from 40 to 400. */
export const SENSOR_LOW = 40;
export const SENSOR_HIGH = 400;

/** One local hour's readings beyond the sensor's range. */
interface Beyond {
  low: number;
  high: number;
}

const hourOf = (local: string) => local.slice(0, 13);

/** Reads a Clarity export's rows into the patient and hourly blood glucose entries. */
export class DexcomRows {
  private readonly hours = new SampleHours('blood_glucose');
  private readonly beyond = new Map<string, Beyond>();
  private readonly patient: Record<'FirstName' | 'LastName' | 'DateOfBirth', string> = {
    FirstName: '',
    LastName: '',
    DateOfBirth: '',
  };

  constructor(
    private readonly header: DexcomHeader,
    private readonly reading: CsvReading,
    private readonly options: ReadOptions,
    private readonly timeZone: string,
  ) {}

  row({ line, fields }: CsvRow): void {
    const cell = (index: number | null) => (index === null ? '' : (fields[index] ?? '').trim());
    const type = cell(this.header.eventType);
    if (Object.hasOwn(this.patient, type)) {
      this.patient[type as keyof typeof this.patient] = cell(this.header.patientInfo);
      return;
    }
    const stamp = cell(this.header.timestamp);
    // Rows with no time are the devices, the sensor and the alert settings: nothing to keep.
    if (!stamp && type !== 'EGV') return;
    if (type !== 'EGV') {
      return this.reading.skip(
        type
          ? tr('Dexcom {type} events (Kin Health keeps glucose readings)', { type })
          : tr('Dexcom unnamed events (Kin Health keeps glucose readings)'),
      );
    }
    if (!stamp) return this.reading.problem(line, tr('{column} is empty', { column: 'Timestamp' }));
    const date = readDate(stamp);
    if (!date || date.kind === 'slashed') {
      return this.reading.problem(
        line,
        tr('{column} {value} is not a date and time', {
          column: 'Timestamp',
          value: quoted(stamp),
        }),
      );
    }
    const moment = momentOf(date, null, this.timeZone);
    if (!inDateRange(moment.local, this.options)) return this.reading.skip(tr(OUTSIDE_DATES));
    const text = cell(this.header.glucose.index);
    const value = this.glucoseOf(text, moment.local);
    if (typeof value === 'string') return this.reading.problem(line, value);
    this.hours.add({ at: moment.at, local: moment.local, value });
  }

  /** A reading in mg/dL ('Low' and 'High' at the sensor's limit), or why it is none. */
  private glucoseOf(text: string, local: string): number | string {
    const limit = { low: SENSOR_LOW, high: SENSOR_HIGH }[text.toLowerCase()];
    if (limit !== undefined) {
      const beyond = this.beyond.get(hourOf(local)) ?? { low: 0, high: 0 };
      beyond[text.toLowerCase() as keyof Beyond] += 1;
      this.beyond.set(hourOf(local), beyond);
      return limit;
    }
    const column = `Glucose Value (${MEASURES.blood_glucose.units[this.header.glucose.system].symbol})`;
    const number = numberOf(text);
    if (number === null) return tr('{column} is empty', { column });
    if (Number.isNaN(number))
      return tr('{column} {value} is not a number', { column, value: quoted(text) });
    const value = toCanonical('blood_glucose', number, this.header.glucose.system);
    const { min, max } = MEASURES.blood_glucose;
    if (value < min || value > max)
      return tr('{column} {value} is not a glucose reading', { column, value: quoted(text) });
    return value;
  }

  finish(): FilePatient | null {
    for (const hour of this.hours.entries()) {
      const local = hourOf(clockOf(hour.measured_at, this.timeZone));
      const notes = [hour.notes, beyondNote(this.beyond.get(local))].filter(Boolean).join('; ');
      const parsed = vitalDefinition.schema.safeParse({
        measured_at: hour.measured_at,
        blood_glucose_mg_dl: hour.value,
        notes: notes || null,
        family_member_id: null,
      });
      if (!parsed.success) {
        this.reading.skip(
          tr('Hours of glucose readings that could not be kept ({reason})', {
            reason: issuesOf(parsed.error),
          }),
        );
        continue;
      }
      this.reading.records.vital.push({
        source_id: this.reading.sourceId(`csv:dexcom:${hour.measured_at}`),
        values: parsed.data,
      });
    }
    return this.patientOf();
  }

  private patientOf(): FilePatient | null {
    const { FirstName, LastName, DateOfBirth } = this.patient;
    const name = [FirstName, LastName].filter(Boolean).join(' ') || null;
    const born = DateOfBirth ? readDate(DateOfBirth) : null;
    const birth_date =
      born?.kind === 'wall' && !born.timed ? momentOf(born, null, 'UTC').local.slice(0, 10) : null;
    if (!name && !birth_date) return null;
    return { name, birth_date, sex: null, ids: [] };
  }
}

/** '3 readings Low (below 40 mg/dL, counted as 40)'. */
function beyondNote(beyond: Beyond | undefined): string | null {
  if (!beyond) return null;
  const parts: string[] = [];
  const shown = (value: number) => formatMeasure('blood_glucose', value, 'us');
  const say = (count: number, word: string, side: string, limit: number) =>
    count > 0 &&
    parts.push(
      `${count} ${count === 1 ? 'reading' : 'readings'} ${word} (${side} ${shown(limit)}, counted as ${limit})`,
    );
  say(beyond.low, 'Low', 'below', SENSOR_LOW);
  say(beyond.high, 'High', 'above', SENSOR_HIGH);
  return parts.join('; ');
}
