import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCsvFile } from '../server/imports/csv/read-csv';
import {
  LAB_TEMPLATE_EXAMPLE,
  VITALS_TEMPLATE_EXAMPLE,
  csvTemplate,
  type CsvTemplateKind,
} from './imports-csv-template';

const folder = mkdtempSync(join(tmpdir(), 'kin-csv-template-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The template as the browser saves it, read back by the import's reader. */
async function readBack(kind: CsvTemplateKind) {
  const path = join(folder, `${kind}.csv`);
  const text = csvTemplate(kind);
  writeFileSync(path, text);
  const result = await readCsvFile({ path, name: `${kind}.csv`, size: text.length }, {});
  if (!('kind' in result)) throw new Error(result.message);
  expect(result.problems).toEqual([]);
  expect(result.records.skipped).toEqual({});
  return result.records.records;
}

describe("'Download a CSV template'", () => {
  it("writes the vitals form's labels with their metric units, and one example row", () => {
    expect(csvTemplate('vitals')).toBe(
      'Measured At,Weight (kg),Height (cm),Head Circumference (cm),Systolic (mmHg),Diastolic (mmHg),' +
        'Heart Rate (/min),Respiratory Rate (/min),Temperature (°C),Oxygen Saturation (%),Pain Score,' +
        'Blood Glucose (mmol/L),Glucose Timing,Notes\r\n' +
        '2024-01-15 08:30,72.5,175,,120,80,72,16,36.8,98,0,5.4,Fasting,Morning check\r\n',
    );
  });

  it('writes the lab result form labels and one example row', () => {
    expect(csvTemplate('lab-results')).toBe(
      'Test Name,LOINC Code,Result,Unit,Range Low,Range High,Collected Date,Lab,Ordered By,Notes\r\n' +
        'Hemoglobin A1c,4548-4,5.4,%,4.0,5.6,2024-01-15,City Lab,Dr. Rivera,Fasting\r\n',
    );
  });

  it('reads back as its example vitals entry', async () => {
    const records = await readBack('vitals');
    const { measured_at: _, blood_glucose_mg_dl: mmol, ...example } = VITALS_TEMPLATE_EXAMPLE;
    expect(records.vital).toEqual([
      {
        source_id: 'csv:vital:2024-01-15T08:30:00.000Z',
        values: {
          ...example,
          measured_at: '2024-01-15T08:30:00.000Z',
          head_circumference_cm: null,
          // The template's glucose is in mmol/L; it is kept in mg/dL.
          blood_glucose_mg_dl: Math.round(mmol! * 18.016 * 10_000) / 10_000,
          family_member_id: null,
        },
      },
    ]);
    expect(records.lab_result).toEqual([]);
  });

  it('reads back as its example lab result', async () => {
    const records = await readBack('lab-results');
    expect(records.lab_result).toEqual([
      {
        source_id: 'csv:lab:2024-01-15:hemoglobin a1c',
        values: { ...LAB_TEMPLATE_EXAMPLE, family_member_id: null },
      },
    ]);
    expect(records.vital).toEqual([]);
  });
});
