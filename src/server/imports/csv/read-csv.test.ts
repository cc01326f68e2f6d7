import { truncateSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { runInLanguage, startServerLanguages } from '../../i18n/server-language';
import { read, refusal, useCsvFiles } from './csv-test-files';
import { MAX_LISTED_PROBLEMS, moreProblemsReason } from './csv-result';
import { MAX_CSV_BYTES } from './csv-rows';
import { MAX_ROWS, readCsvFile, tooManyRows } from './read-csv';

const { readCsvText } = useCsvFiles();

const vitalsOf = async (text: string, options = {}) =>
  read(await readCsvText(text, options)).records.records.vital;

describe('a CSV of measurements', () => {
  it('reads metric columns, with or without their unit, into vitals entries', async () => {
    const vitals = await vitalsOf(
      [
        'Measured At,Weight (kg),Height,Systolic (mmHg),Diastolic,Heart Rate (/min),Temperature (°C),Oxygen Saturation (%),Blood Glucose,Glucose Timing,Notes',
        '2024-01-15 08:30,72.5,175,120,80,72,36.8,98,5.4,fasting,Morning check',
        '2024-01-16,73,,,,,,,,,',
      ].join('\n'),
    );
    expect(vitals).toHaveLength(2);
    expect(vitals[0]!.values).toMatchObject({
      measured_at: '2024-01-15T08:30:00.000Z',
      weight_kg: 72.5,
      height_cm: 175,
      systolic_mmhg: 120,
      diastolic_mmhg: 80,
      heart_rate_per_min: 72,
      temperature_c: 36.8,
      oxygen_saturation_pct: 98,
      // 5.4 mmol/L, stored in mg/dL.
      blood_glucose_mg_dl: 97.2864,
      glucose_timing: 'Fasting',
      notes: 'Morning check',
    });
    expect(vitals[1]!.values).toMatchObject({
      measured_at: '2024-01-16T00:00:00.000Z',
      weight_kg: 73,
      height_cm: null,
    });
  });

  it('reads US units named in brackets into the stored metric ones', async () => {
    const vitals = await vitalsOf(
      [
        'Date,Weight (lb),Height (in),Head Circumference (in),Temperature (°F),Blood Glucose (mg/dL)',
        '2024-01-15,160,69,18,98.6,110',
        '2024-01-16,161.5,69.5,,100.4,95',
      ].join('\n'),
    );
    expect(vitals.map((vital) => vital.values)).toMatchObject([
      {
        weight_kg: 72.5748,
        height_cm: 175.26,
        head_circumference_cm: 45.72,
        temperature_c: 37,
        blood_glucose_mg_dl: 110,
      },
      { weight_kg: 73.2552, height_cm: 176.53, temperature_c: 38, blood_glucose_mg_dl: 95 },
    ]);
    for (const unit of ['F', 'ºF', 'degF']) {
      const fahrenheit = await vitalsOf(`Date,Temperature (${unit})\n2024-01-15,98.6\n`);
      expect(fahrenheit[0]!.values.temperature_c).toBe(37);
    }
  });

  it('refuses a column in a unit it does not know, naming the units it reads', async () => {
    const message = refusal(await readCsvText('Date,Weight (stone)\n2024-01-15,11\n'));
    expect(message).toBe(
      "The column 'Weight (stone)' is in a unit Kin Health does not read: Weight is read in kg or lb.",
    );
  });

  it('tells a semicolon or tab delimiter and a byte-order mark, and reads decimal commas', async () => {
    const semicolons = await vitalsOf(
      '\uFEFFDate;Weight (kg);Notes\n2024-01-15;72,5;"Before, not after"\n',
    );
    expect(semicolons[0]!.values).toMatchObject({ weight_kg: 72.5, notes: 'Before, not after' });
    const tabs = await vitalsOf('Date\tWeight (kg)\tHeart Rate\r\n2024-01-15\t72.5\t64\r\n');
    expect(tabs[0]!.values).toMatchObject({ weight_kg: 72.5, heart_rate_per_min: 64 });
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('Date\tWeight (kg)\r\n2024-01-15\t70\r\n', 'utf16le'),
    ]);
    expect(read(await readCsvText(utf16)).records.records.vital[0]!.values.weight_kg).toBe(70);
  });

  it('reads times without an offset on the user clock, and ISO times with theirs', async () => {
    const text = [
      'Measured At,Heart Rate',
      '2024-01-15 08:30,70',
      '2024-07-15T08:30:15,71',
      '2024-01-15T08:30:00+01:00,72',
      '2024-01-15T08:30:00Z,73',
      '2024-01-15,74',
    ].join('\n');
    const vitals = await vitalsOf(text, { timeZone: 'America/New_York' });
    expect(vitals.map((vital) => vital.values.measured_at)).toEqual([
      '2024-01-15T13:30:00.000Z',
      '2024-07-15T12:30:15.000Z',
      '2024-01-15T07:30:00.000Z',
      '2024-01-15T08:30:00.000Z',
      '2024-01-15T05:00:00.000Z',
    ]);
  });

  it('reads a time the clock skipped as after the change, and one it repeated as the first', async () => {
    const text = 'Measured At,Weight\n2024-03-10 02:30,70\n2024-11-03 01:30,71\n';
    const vitals = await vitalsOf(text, { timeZone: 'America/New_York' });
    expect(vitals.map((vital) => vital.values.measured_at)).toEqual([
      // 03:30 EDT: 02:30 was never on the clock that day.
      '2024-03-10T07:30:00.000Z',
      // 01:30 EDT, the first of the two.
      '2024-11-03T05:30:00.000Z',
    ]);
  });

  it("reads a spreadsheet's month/day dates when a day over 12 tells the order", async () => {
    const text = 'Date,Weight (lb)\n3/4/2024 8:05 PM,150\n3/14/2024,151\n12/1/2023 7:00,152\n';
    const vitals = await vitalsOf(text, { timeZone: 'UTC' });
    expect(vitals.map((vital) => vital.values.measured_at)).toEqual([
      '2024-03-04T20:05:00.000Z',
      '2024-03-14T00:00:00.000Z',
      '2023-12-01T07:00:00.000Z',
    ]);
  });

  it('reads day/month dates when a first part over 12 tells it', async () => {
    const vitals = await vitalsOf('Date;Weight (kg)\n14/3/2024;70\n3/4/2024;71\n');
    expect(vitals.map((vital) => vital.values.measured_at)).toEqual([
      '2024-03-14T00:00:00.000Z',
      '2024-04-03T00:00:00.000Z',
    ]);
  });

  it('refuses a file whose slashed dates could go either way, or go both ways', async () => {
    expect(refusal(await readCsvText('Date,Weight (kg)\n3/4/2024,70\n5/6/2024,71\n'))).toBe(
      "The dates in column 'Date' (such as '3/4/2024') could be month/day or day/month, and no date in the file tells which. Write them as YYYY-MM-DD and import the file again.",
    );
    expect(refusal(await readCsvText('Date,Weight (kg)\n3/14/2024,70\n14/3/2024,71\n'))).toMatch(
      /both month first \('3\/14\/2024'\) and day first \('14\/3\/2024'\)/,
    );
    // Dates that read the same either way round need no telling.
    expect(await vitalsOf('Date,Weight (kg)\n4/4/2024,70\n')).toHaveLength(1);
  });

  it('sets each row that does not read aside by its line, and reads the rest', async () => {
    const text = [
      'Date,Weight (kg),Systolic,Diastolic,Glucose Timing,Notes', // 1
      '2024-01-01,70,,,,', // 2
      '2024-01-02,abc,,,,', // 3
      '2024-01-03,70,120,,,', // 4
      '2024-01-04,,,,,"A note', // 5
      'over two lines"', // 6
      '2024-01-05,900,,,,', // 7
      'yesterday,70,,,,', // 8
      ',70,,,,', // 9
      '2024-01-06,70.5,118,76,Before Meal,', // 10
      '2024-01-07,71,,,Sometimes,', // 11
      '', // 12
      '2024-01-08,70,,,,', // 13
      '2999-01-01,70,,,,', // 14
    ].join('\n');
    const result = read(await readCsvText(text));
    expect(result.problems).toEqual([
      { line: 3, message: "Weight (kg) 'abc' is not a number" },
      { line: 4, message: 'Diastolic is required with Systolic' },
      { line: 5, message: 'Enter at least one measurement' },
      { line: 7, message: "Weight must be between 0.2 and 500 kg: it is '900'" },
      {
        line: 8,
        message:
          "Date 'yesterday' is not a date (write YYYY-MM-DD, YYYY-MM-DD HH:mm, an ISO time, or M/D/YYYY)",
      },
      { line: 9, message: 'Date is empty' },
      { line: 10, message: 'Glucose Timing needs a Blood Glucose' },
      {
        line: 11,
        message:
          "Glucose Timing 'Sometimes' is not one of Fasting, Before Meal, After Meal, Random",
      },
      { line: 14, message: 'Measured At cannot be in the future' },
    ]);
    expect(result.records.records.vital.map((vital) => vital.values.measured_at)).toEqual([
      '2024-01-01T00:00:00.000Z',
      '2024-01-08T00:00:00.000Z',
    ]);
  });

  it('lists the first problems and counts them all', async () => {
    const rows = Array.from({ length: 150 }, (_, index) => `2024-01-01,bad${index}`);
    const result = read(await readCsvText(['Date,Weight', ...rows, '2024-01-02,70'].join('\n')));
    expect(result.problems).toHaveLength(MAX_LISTED_PROBLEMS);
    expect(result.problems[0]).toEqual({ line: 2, message: "Weight 'bad0' is not a number" });
    expect(result.records.skipped[moreProblemsReason(MAX_LISTED_PROBLEMS)]).toBe(150);
    expect(result.records.records.vital).toHaveLength(1);
  });

  it('keeps measurements in the chosen dates, and counts the rest', async () => {
    const text = 'Date,Weight\n2024-01-01,70\n2024-01-02,71\n2024-01-03,72\n';
    const result = read(await readCsvText(text, { from: '2024-01-02', to: '2024-01-02' }));
    expect(result.records.records.vital.map((vital) => vital.values.weight_kg)).toEqual([71]);
    expect(result.records.skipped).toEqual({ 'Measurements outside the chosen dates': 2 });
  });

  it('says what it left out of columns it does not read', async () => {
    const result = read(
      await readCsvText('Date,Weight,Mood\n2024-01-01,70,fine\n2024-01-02,71,\n'),
    );
    expect(result.records.skipped).toEqual({
      "Values in column 'Mood' (not a column Kin Health reads)": 1,
    });
  });

  it('gives the same source ids on every read, and a corrected row the same id', async () => {
    const text =
      'Date,Weight,Heart Rate\n2024-01-01 08:00,70,\n2024-01-01 08:00,,64\n2024-01-02,71,\n';
    const first = await vitalsOf(text);
    const again = await vitalsOf(text);
    expect(first.map((vital) => vital.source_id)).toEqual([
      'csv:vital:2024-01-01T08:00:00.000Z',
      'csv:vital:2024-01-01T08:00:00.000Z#2',
      'csv:vital:2024-01-02T00:00:00.000Z',
    ]);
    expect(again).toEqual(first);
    const corrected = await vitalsOf(text.replace('2024-01-02,71', '2024-01-02,71.5'));
    expect(corrected[2]).toEqual({
      source_id: 'csv:vital:2024-01-02T00:00:00.000Z',
      values: { ...first[2]!.values, weight_kg: 71.5 },
    });
  });
});

describe('a CSV of lab results', () => {
  it("reads the lab result form's labels into lab results", async () => {
    const text = [
      'Test Name,LOINC Code,Result,Unit,Range Low,Range High,Collected Date,Lab,Ordered By,Notes',
      '"Cholesterol, total",2093-3,182,mg/dL,,200,2024-01-15,Quest,Dr. Okafor,Fasting',
      'Urine culture,,Negative,,,,1/15/2024,City Lab,,',
      'Glucose,2345-7,,mg/dL,70,99,2024-01-15,,,',
      'Potassium,2823-3,4.1,mmol/L,5.0,3.5,2024-01-16,,,',
      'LDL,bad,100,mg/dL,,,2024-01-16,,,',
      'Creatinine,2160-0,0.9,mg/dL,0.6,1.2,1/16/2024,,,',
    ].join('\n');
    const result = read(await readCsvText(text));
    expect(result.problems).toEqual([
      { line: 4, message: 'Result is required' },
      { line: 5, message: 'Range Low must not be above Range High' },
      { line: 6, message: 'LOINC Code must be a LOINC code (such as 2093-3)' },
    ]);
    const labs = result.records.records.lab_result;
    expect(labs.map((lab) => lab.values)).toMatchObject([
      {
        test_name: 'Cholesterol, total',
        loinc_code: '2093-3',
        result: '182',
        unit: 'mg/dL',
        range_low: null,
        range_high: '200',
        collected_date: '2024-01-15',
        lab: 'Quest',
        ordered_by: 'Dr. Okafor',
        notes: 'Fasting',
      },
      { test_name: 'Urine culture', result: 'Negative', collected_date: '2024-01-15' },
      { test_name: 'Creatinine', collected_date: '2024-01-16' },
    ]);
    expect(labs.map((lab) => lab.source_id)).toEqual([
      'csv:lab:2024-01-15:cholesterol, total',
      'csv:lab:2024-01-15:urine culture',
      'csv:lab:2024-01-16:creatinine',
    ]);
  });

  it('refuses a lab results file with no collected date', async () => {
    expect(refusal(await readCsvText('Test Name,Result\nGlucose,90\n'))).toBe(
      "This CSV of lab results has no 'Collected Date' column.",
    );
  });
});

describe('a CSV of no known kind', () => {
  it('is refused with the columns each kind needs', async () => {
    const message = refusal(await readCsvText('Name,Amount,When\nCoffee,3.5,2024-01-01\n'));
    expect(message).toMatch(/^This CSV's first row names no columns Kin Health reads\./);
    expect(message).toContain("Measurements need a 'Date' or 'Measured At' column");
    expect(message).toContain("'Weight', 'Height', 'Head Circumference', 'Systolic'");
    expect(message).toContain("lab results need 'Test Name', 'Result', 'Collected Date'");
    expect(refusal(await readCsvText(''))).toBe(message);
  });

  it('is refused when its measurements have no date column', async () => {
    expect(refusal(await readCsvText('Weight,Height\n70,170\n'))).toBe(
      "This CSV of measurements has no 'Date' or 'Measured At' column to say when each row was measured.",
    );
  });

  it('is refused when the time zone is none', async () => {
    expect(
      refusal(await readCsvText('Date,Weight\n2024-01-01,70\n', { timeZone: 'Mars/Base' })),
    ).toBe("'Mars/Base' is not a time zone Kin Health knows.");
  });

  it('is refused when a quote never closes', async () => {
    const message = refusal(
      await readCsvText('Date,Weight,Notes\n2024-01-01,70,"open\n2024-01-02,71,x\n'),
    );
    expect(message).toBe(
      'This CSV could not be read: Quote Not Closed: the parsing is finished with an opening quote at line 3',
    );
  });
});

describe('the bounds of a CSV', () => {
  const { csvFile } = useCsvFiles();

  it('refuses a file over 64 MB before reading it', async () => {
    const file = csvFile('Date,Weight\n2024-01-01,70\n');
    truncateSync(file.path, MAX_CSV_BYTES + 1);
    expect(refusal(await readCsvFile(file, {}))).toBe(
      'This CSV is 65 MB; at most 64 MB can be imported at once. Split it into smaller files.',
    );
  });

  it('refuses a file of 10 million rows once it passes the rows a file may hold', async () => {
    // 30 MB: under the size bound, so the rows are what refuses it.
    const rows = Buffer.alloc(10_000_000 * 3, ',1\n');
    const file = csvFile(Buffer.concat([Buffer.from('Date,Weight\n'), rows]));
    expect(refusal(await readCsvFile(file, {}))).toBe(tooManyRows('measurements'));
    expect(tooManyRows('measurements')).toBe(
      'This CSV has more than 100,000 rows; at most 100,000 rows of measurements can be imported at once. Split it into smaller files.',
    );
  });

  it('reads a file of as many rows as it may hold', async () => {
    const rows = Buffer.alloc(MAX_ROWS.measurements * 3, ',1\n');
    const file = csvFile(Buffer.concat([Buffer.from('Date,Weight\n'), rows]));
    const result = read(await readCsvFile(file, {}));
    expect(result.problems).toHaveLength(MAX_LISTED_PROBLEMS);
    expect(result.records.skipped[moreProblemsReason(MAX_LISTED_PROBLEMS)]).toBe(
      MAX_ROWS.measurements,
    );
  });
});

describe('a CSV refused in the reader’s language', () => {
  const { csvFile } = useCsvFiles();
  beforeAll(() => startServerLanguages());

  it('keeps the parser’s own words inside a Spanish sentence', async () => {
    const message = await runInLanguage('es', async () =>
      refusal(await readCsvText('Date,Weight,Notes\n2024-01-01,70,"open\n2024-01-02,71,x\n')),
    );
    expect(message).toBe(
      'No se pudo leer este CSV: Quote Not Closed: the parsing is finished with an opening quote at line 3',
    );
  });

  it('writes the bounds’ numbers the language’s way', async () => {
    const file = csvFile('Date,Weight\n2024-01-01,70\n');
    truncateSync(file.path, MAX_CSV_BYTES + 1);
    expect(await runInLanguage('es', async () => refusal(await readCsvFile(file, {})))).toBe(
      'Este CSV ocupa 65 MB; se pueden importar como máximo 64 MB a la vez. Divídalo en archivos más pequeños.',
    );
    expect(runInLanguage('de', () => tooManyRows('lab-results'))).toBe(
      'Diese CSV-Datei hat mehr als 100.000 Zeilen; höchstens 100.000 Zeilen mit Laborwerten können auf einmal importiert werden. Teilen Sie sie in kleinere Dateien auf.',
    );
  });

  it('names the columns and dates as the file writes them, the words around them translated', async () => {
    const dates = await runInLanguage('fr', async () =>
      refusal(await readCsvText('Date,Weight (kg)\n3/4/2024,70\n5/6/2024,71\n')),
    );
    expect(dates).toBe(
      "Les dates de la colonne 'Date' (comme '3/4/2024') peuvent être mois/jour ou jour/mois, et aucune date du fichier ne permet de trancher. Écrivez-les au format YYYY-MM-DD et importez à nouveau le fichier.",
    );
    const header = await runInLanguage('es', async () =>
      refusal(await readCsvText('Name,Amount,When\nCoffee,3.5,2024-01-01\n')),
    );
    expect(header).toMatch(/^La primera fila de este CSV no nombra ninguna columna/);
    expect(header).toContain("Las mediciones necesitan una columna 'Date' o 'Measured At'");
    expect(header).toContain("'Weight', 'Height', 'Head Circumference', 'Systolic'");
    const zone = await runInLanguage('pt-BR', async () =>
      refusal(await readCsvText('Date,Weight\n2024-01-01,70\n', { timeZone: 'Mars/Base' })),
    );
    expect(zone).toBe("'Mars/Base' não é um fuso horário que o Kin Health conheça.");
  });
});
