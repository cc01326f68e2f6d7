import { describe, expect, it } from 'vitest';
import { read, useCsvFiles } from './csv-test-files';
import { DEXCOM_HEADER, READINGS_PER_DAY, dexcomExport, glucoseAt } from './dexcom-fixture';

const { readCsvText } = useCsvFiles();

const days = ['2024-03-01', '2024-03-02'];

/** The mean, lowest and highest of an hour's numeric readings in the fixture. */
function hourOf(hour: number, beyond: (minute: number) => number | null = () => null) {
  const values = Array.from({ length: 12 }, (_, index) => {
    const minute = hour * 60 + index * 5 + 2;
    return beyond(minute) ?? glucoseAt(minute);
  });
  // SampleHours keeps one decimal of a mean glucose.
  const mean =
    Math.round((values.reduce((sum, value) => sum + value, 0) / values.length) * 10) / 10;
  return { mean, lowest: Math.min(...values), highest: Math.max(...values) };
}

describe("Dexcom Clarity's export", () => {
  it("reads the patient, and each hour's sensor readings as one blood glucose entry", async () => {
    const text = dexcomExport({ days });
    expect(text.split('\r\n').filter((line) => line.includes(',EGV,'))).toHaveLength(
      2 * READINGS_PER_DAY,
    );
    const result = read(await readCsvText(text, { timeZone: 'America/Chicago' }));
    expect(result.kind).toBe('csv');
    expect(result.patient).toEqual({
      name: 'Maya Lopez',
      birth_date: '2012-05-09',
      sex: null,
      ids: [],
    });
    expect(result.problems).toEqual([]);
    const vitals = result.records.records.vital;
    expect(vitals).toHaveLength(48);
    expect(result.records.records.lab_result).toEqual([]);
    // 00:02:37 in Chicago (UTC−6 in March before the change).
    const hour6 = hourOf(6);
    expect(vitals[6]).toEqual({
      source_id: 'csv:dexcom:2024-03-01T12:02:37.000Z',
      values: expect.objectContaining({
        measured_at: '2024-03-01T12:02:37.000Z',
        blood_glucose_mg_dl: hour6.mean,
        notes: `Mean of 12 readings from 06:02 to 06:57 (lowest ${hour6.lowest} mg/dL, highest ${hour6.highest} mg/dL)`,
        systolic_mmhg: null,
      }),
    });
    expect(vitals[0]!.values.measured_at).toBe('2024-03-01T06:02:37.000Z');
    expect(result.records.skipped).toEqual({
      'Dexcom Insulin events (Kin Health keeps glucose readings)': 2,
      'Dexcom Carbs events (Kin Health keeps glucose readings)': 2,
      'Dexcom Exercise events (Kin Health keeps glucose readings)': 2,
    });
  });

  it("counts 'Low' and 'High' at the sensor's limits, and says so in the hour's notes", async () => {
    const vitals = read(await readCsvText(dexcomExport({ days }))).records.records.vital;
    const low = hourOf(2, (minute) => (minute >= 120 && minute < 150 ? 40 : null));
    expect(vitals[2]!.values).toMatchObject({
      measured_at: '2024-03-01T02:02:37.000Z',
      blood_glucose_mg_dl: low.mean,
      notes: `Mean of 12 readings from 02:02 to 02:57 (lowest 40 mg/dL, highest ${low.highest} mg/dL); 6 readings Low (below 40 mg/dL, counted as 40)`,
    });
    const high = hourOf(15, (minute) => (minute >= 900 && minute < 915 ? 400 : null));
    expect(vitals[15]!.values).toMatchObject({
      blood_glucose_mg_dl: high.mean,
      notes: `Mean of 12 readings from 15:02 to 15:57 (lowest ${high.lowest} mg/dL, highest 400 mg/dL); 3 readings High (above 400 mg/dL, counted as 400)`,
    });
  });

  it('reads the mmol/L export into the same stored unit', async () => {
    const mgdl = read(await readCsvText(dexcomExport({ days }))).records.records.vital;
    const mmol = read(await readCsvText(dexcomExport({ days, unit: 'mmol/L' }))).records.records
      .vital;
    expect(mmol).toHaveLength(mgdl.length);
    for (const [index, entry] of mmol.entries()) {
      // One decimal of mmol/L is within 1 mg/dL of the reading.
      expect(
        Math.abs(entry.values.blood_glucose_mg_dl! - mgdl[index]!.values.blood_glucose_mg_dl!),
      ).toBeLessThanOrEqual(1);
    }
  });

  it('gives the same source ids on every read', async () => {
    const text = dexcomExport({ days });
    const ids = async () =>
      read(await readCsvText(text)).records.records.vital.map((vital) => vital.source_id);
    const first = await ids();
    expect(new Set(first).size).toBe(48);
    expect(await ids()).toEqual(first);
  });

  it('sets a reading that does not read aside by its line, and keeps the chosen days', async () => {
    const text = dexcomExport({ days })
      .replace('2024-03-01T00:07:37,EGV,,,,Android G6,', '2024-03-01T00:07:37,EGV,,,,Android G6,??')
      .replace('2024-03-01T00:12:37,EGV', ',EGV')
      .replace('2024-03-01T00:17:37,EGV', '3/1/2024 00:17,EGV');
    const whole = read(await readCsvText(text));
    // The header, 8 patient, device, sensor and alert rows, then the first day's readings.
    const timestamps = [
      { line: 12, message: 'Timestamp is empty' },
      { line: 13, message: "Timestamp '3/1/2024 00:17' is not a date and time" },
    ];
    expect(whole.problems).toEqual([
      { line: 11, message: `Glucose Value (mg/dL) '??${glucoseAt(7)}' is not a number` },
      ...timestamps,
    ]);
    expect(whole.records.records.vital).toHaveLength(48);
    // A reading outside the chosen days is no problem; one with no time to tell cannot be told.
    const second = read(await readCsvText(text, { from: '2024-03-02' }));
    expect(second.problems).toEqual(timestamps);
    expect(second.records.records.vital).toHaveLength(24);
    expect(second.records.skipped['Measurements outside the chosen dates']).toBe(
      READINGS_PER_DAY - 2,
    );
  });

  it('names no patient when the export has none', async () => {
    const text = `${DEXCOM_HEADER('mg/dL')}\r\n1,2024-03-01T00:02:37,EGV,,,,Android G6,101,,,,,4200300,8XY4Z2\r\n`;
    const result = read(await readCsvText(text));
    expect(result.patient).toBeNull();
    expect(result.records.records.vital.map((vital) => vital.values)).toMatchObject([
      { blood_glucose_mg_dl: 101, notes: null },
    ]);
  });
});
