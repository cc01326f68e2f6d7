/**
 * 'Download a CSV template' on /import: the text of a CSV the import reads (CONTRACT §6), a
 * header row of the product's own labels (each measure with its metric unit in brackets)
 * and one example row, for measurements and for lab results. The browser makes the file
 * from it, so no server answers for it; the server's reader reads it back as written
 * (src/server/imports/csv/, tested there and in imports-csv-template.test.ts).
 */
import { labResultDefinition } from './records/lab-results';
import { VITAL_COLUMNS, vitalDefinition, type VitalColumn } from './records/vitals';
import { MEASURES } from './units';

export type CsvTemplateKind = 'vitals' | 'lab-results';

/** The file name the browser gives each template. */
export const CSV_TEMPLATE_FILE_NAMES: Record<CsvTemplateKind, string> = {
  vitals: 'kin-health-vitals-template.csv',
  'lab-results': 'kin-health-lab-results-template.csv',
};

/** The example row of the measurements template, in metric units. */
export const VITALS_TEMPLATE_EXAMPLE: Partial<Record<VitalColumn, number>> & {
  measured_at: string;
  glucose_timing: string;
  notes: string;
} = {
  measured_at: '2024-01-15 08:30',
  weight_kg: 72.5,
  height_cm: 175,
  systolic_mmhg: 120,
  diastolic_mmhg: 80,
  heart_rate_per_min: 72,
  respiratory_rate_per_min: 16,
  temperature_c: 36.8,
  oxygen_saturation_pct: 98,
  pain_score: 0,
  blood_glucose_mg_dl: 5.4,
  glucose_timing: 'Fasting',
  notes: 'Morning check',
};

/** The example row of the lab results template. */
export const LAB_TEMPLATE_EXAMPLE: Record<
  Exclude<keyof typeof labResultDefinition.fields, 'family_member_id'>,
  string
> = {
  test_name: 'Hemoglobin A1c',
  loinc_code: '4548-4',
  result: '5.4',
  unit: '%',
  range_low: '4.0',
  range_high: '5.6',
  collected_date: '2024-01-15',
  lab: 'City Lab',
  ordered_by: 'Dr. Rivera',
  notes: 'Fasting',
};

/** A cell as CSV writes it: quoted when it holds a comma, a quote or a line break. */
const cell = (value: string | number | undefined) => {
  const text = value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

const line = (cells: (string | number | undefined)[]) => cells.map(cell).join(',');

/** A measure's column, its metric unit in brackets: 'Weight (kg)', 'Pain Score' (no unit). */
function measureHeader(column: VitalColumn): string {
  const { label } = vitalDefinition.fields[column];
  const { ucum, symbol } = MEASURES[VITAL_COLUMNS[column]].units.metric;
  return ucum.startsWith('{') ? label : `${label} (${symbol})`;
}

/** The text of a template: its header row and example row, each line ending in CRLF. */
export function csvTemplate(kind: CsvTemplateKind): string {
  if (kind === 'vitals') {
    const columns = Object.keys(VITAL_COLUMNS) as VitalColumn[];
    const example = VITALS_TEMPLATE_EXAMPLE;
    return [
      line([
        vitalDefinition.fields.measured_at.label,
        ...columns.map(measureHeader),
        vitalDefinition.fields.glucose_timing.label,
        vitalDefinition.fields.notes.label,
      ]),
      line([
        example.measured_at,
        ...columns.map((column) => example[column]),
        example.glucose_timing,
        example.notes,
      ]),
      '',
    ].join('\r\n');
  }
  const fields = Object.keys(LAB_TEMPLATE_EXAMPLE) as (keyof typeof LAB_TEMPLATE_EXAMPLE)[];
  return [
    line(fields.map((field) => labResultDefinition.fields[field].label)),
    line(fields.map((field) => LAB_TEMPLATE_EXAMPLE[field])),
    '',
  ].join('\r\n');
}
