import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createWriteStream } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipArchive } from '../../data-transfer/export-archive';
import type { ReadFile, ReadFileResult, ReadOptions } from '../file-readers';
import { XML_REFUSED } from '../xml-safety';
import {
  appleRecord,
  healthDataXml,
  writeAppleHealthXml,
  writeAppleHealthZip,
  type WrittenExport,
} from '../testing/apple-health-export';
import { readAppleHealthFile } from './read-apple-health';
import { NO_EXPORT_XML } from './export-zip';
import { runInLanguage, startServerLanguages } from '../../i18n/server-language';

let dir: string;
let zipPath: string;
let written: WrittenExport;
/** The two-year .zip read once, for the tests that look at it whole. */
let whole: Promise<ReadFileResult>;

const read = (file: string, options: ReadOptions = {}) =>
  readAppleHealthFile({ path: file, name: path.basename(file), size: 0 }, options);

function readOk(result: ReadFileResult): ReadFile {
  if ('ok' in result) throw new Error(result.message);
  return result;
}

async function zipOf(file: string, entries: Record<string, string>) {
  const archive = zipArchive();
  const done = new Promise<void>((resolve, reject) => {
    const output = createWriteStream(file);
    output.on('close', () => resolve());
    output.on('error', reject);
    archive.pipe(output);
  });
  for (const [name, text] of Object.entries(entries)) archive.append(text, { name });
  await archive.finalize();
  await done;
  return file;
}

const vitalsWith = (result: ReadFile, column: string) =>
  result.records.records.vital.filter(
    (entry) => (entry.values as Record<string, unknown>)[column] !== null,
  );

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'kin-apple-health-'));
  zipPath = path.join(dir, 'export.zip');
  written = await writeAppleHealthZip(zipPath, path.join(dir, 'export.xml'), {
    from: '2021-01-01',
    years: 2,
    // Every half hour: each hour's entry stands for two readings.
    heartRatePerDay: 48,
    stepsPerDay: 4,
  });
  whole = read(zipPath);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('an Apple Health export', () => {
  it('reads a .zip of two years: weights, blood pressures in one entry, heart rate by the hour, and the clinical records', async () => {
    const result = readOk(await whole);
    expect(result.kind).toBe('apple-health');
    expect(result.patient).toEqual({
      name: null,
      birth_date: '1980-03-14',
      sex: 'female',
      ids: [],
    });
    const weights = vitalsWith(result, 'weight_kg');
    expect(weights).toHaveLength(written.weights);
    // Written in pounds, kept in kilograms.
    for (const { values } of weights) expect(values.weight_kg).toBeGreaterThan(70);
    const pressures = vitalsWith(result, 'systolic_mmhg');
    // Each Correlation's Records also stand at the top level: still one entry each.
    expect(pressures).toHaveLength(written.bloodPressures);
    for (const { values } of pressures) {
      expect(values.diastolic_mmhg).toBeTypeOf('number');
      expect(values.systolic_mmhg).toBeGreaterThan(values.diastolic_mmhg!);
    }
    const pulses = vitalsWith(result, 'heart_rate_per_min');
    expect(pulses).toHaveLength(written.heartRateHours);
    for (const { values } of pulses) {
      expect(values.notes).toMatch(
        /^Mean of 2 readings from \d\d:\d\d to \d\d:\d\d \(lowest \d+ \/min, highest \d+ \/min\)$/,
      );
    }
    const { allergy, shot } = result.records.records;
    expect(allergy.map(({ values }) => values.substance)).toEqual(['Peanut']);
    expect(shot.map(({ values }) => [values.vaccine_code, values.date_administered])).toEqual([
      ['140', '2022-10-14'],
    ]);
    expect(result.records.imported).toEqual({
      vital: written.weights + written.bloodPressures + written.heartRateHours,
      allergy: 1,
      shot: 1,
    });
    expect(result.records.skipped).toEqual({});
    const ids = result.records.records.vital.map(({ source_id }) => source_id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('reads only the days asked for, on the clock where they were measured', async () => {
    const result = readOk(await read(zipPath, { from: '2022-02-01', to: '2022-02-28' }));
    const days = new Set(
      result.records.records.vital.map(({ source_id }) => {
        const day = /(\d{4}-\d{2}-\d{2})[ T]/.exec(source_id)?.[1];
        return day;
      }),
    );
    expect([...days].sort()).toHaveLength(28);
    expect([...days].every((day) => day! >= '2022-02-01' && day! <= '2022-02-28')).toBe(true);
    expect(vitalsWith(result, 'weight_kg')).toHaveLength(28);
    expect(vitalsWith(result, 'systolic_mmhg')).toHaveLength(28);
  });

  it('names the same readings the same way on every import, and a newer export keeps the older names', async () => {
    const first = readOk(await whole);
    const again = readOk(await read(zipPath));
    const ids = (result: ReadFile) =>
      result.records.records.vital.map(({ source_id }) => source_id);
    expect(ids(again)).toEqual(ids(first));
    expect(again.records.records.vital).toEqual(first.records.records.vital);

    const older = path.join(dir, 'older.xml');
    const newer = path.join(dir, 'newer.xml');
    const options = { from: '2021-01-01', heartRatePerDay: 24, stepsPerDay: 0 };
    writeAppleHealthXml(older, { ...options, years: 0.5 });
    writeAppleHealthXml(newer, { ...options, years: 1 });
    const before = new Set(ids(readOk(await read(older))));
    const after = new Set(ids(readOk(await read(newer))));
    expect(before.size).toBeGreaterThan(100);
    expect([...before].filter((id) => !after.has(id))).toEqual([]);
    expect(after.size).toBeGreaterThan(before.size);
  });

  it('reads a bare export.xml, and one with another name inside the .zip', async () => {
    const xml = path.join(dir, 'bare.xml');
    writeFileSync(
      xml,
      healthDataXml(
        appleRecord('BodyMass', 'kg', '2024-01-05 08:12:00 -0800', '72.5') +
          appleRecord('Height', 'in', '2024-01-05 08:12:00 -0800', '68'),
      ),
    );
    const bare = readOk(await read(xml));
    expect(bare.patient?.sex).toBe('male');
    // Readings of one moment share an entry.
    expect(bare.records.records.vital).toHaveLength(1);
    expect(bare.records.records.vital[0]?.values).toMatchObject({
      measured_at: '2024-01-05T16:12:00.000Z',
      weight_kg: 72.5,
      height_cm: 172.72,
    });
    const localized = await zipOf(path.join(dir, 'localized.zip'), {
      'apple_health_export/Export.xml': '',
      'apple_health_export/export_cda.xml': '<ClinicalDocument/>',
    });
    expect(await read(localized)).toMatchObject({ ok: false });
    const german = await zipOf(path.join(dir, 'german.zip'), {
      'apple_health_export/Exportieren.xml': healthDataXml(
        appleRecord('BodyMass', 'lb', '2024-01-05 08:12:00 -0800', '160'),
      ),
      'apple_health_export/export_cda.xml': '<ClinicalDocument/>',
    });
    expect(readOk(await read(german)).records.records.vital[0]?.values.weight_kg).toBe(72.5748);
  });

  it("converts each of Apple's units, and counts what is out of range as skipped, with why", async () => {
    const at = (minute: number) => `2024-03-0${1 + (minute % 5)} 0${minute % 10}:15:00 +0100`;
    const xml = path.join(dir, 'units.xml');
    writeFileSync(
      xml,
      healthDataXml(
        [
          appleRecord('OxygenSaturation', '%', at(0), '0.97'),
          appleRecord('BodyTemperature', 'degF', at(1), '98.6'),
          appleRecord('BloodGlucose', 'mmol<180.1558800000541>/L', at(2), '5.5'),
          appleRecord('BloodGlucose', 'mg/dL', at(3), '104'),
          appleRecord('RespiratoryRate', 'count/min', at(4), '16'),
          appleRecord('RestingHeartRate', 'count/min', at(5), '58'),
          appleRecord('Height', 'ft', at(6), '5.5'),
          appleRecord('HeartRate', 'count/min', at(7), '400'),
          appleRecord('BodyTemperature', 'K', at(8), '310'),
          appleRecord('StepCount', 'count', at(9), '4000'),
        ].join(''),
      ),
    );
    const result = readOk(await read(xml));
    const values = result.records.records.vital.map(({ values }) => values);
    const find = (column: keyof (typeof values)[number]) =>
      values.filter((entry) => entry[column] !== null).map((entry) => entry[column]);
    expect(find('oxygen_saturation_pct')).toEqual([97]);
    expect(find('temperature_c')).toEqual([37]);
    expect(find('blood_glucose_mg_dl').sort((a, b) => Number(a) - Number(b))).toEqual([
      99.0857, 104,
    ]);
    expect(find('respiratory_rate_per_min')).toEqual([16]);
    expect(find('heart_rate_per_min')).toEqual([58]);
    expect(find('height_cm')).toEqual([167.64]);
    expect(values.find((entry) => entry.heart_rate_per_min === 58)?.notes).toBe(
      'Resting heart rate',
    );
    expect(result.records.skipped).toEqual({
      'Heart rate readings out of range (20–300 /min)': 1,
      'Temperature readings in a unit Kin Health does not read (K)': 1,
    });
  });

  it('counts clinical records of an older FHIR version as skipped, with why, and reads the R4 ones beside them', async () => {
    const clinical = (name: string, resource: object) => ({
      [`apple_health_export/clinical-records/${name}`]: JSON.stringify(resource),
    });
    const file = await zipOf(path.join(dir, 'dstu2.zip'), {
      // Apple names each file's version; one written the R4 way is still DSTU2 when it says so.
      'apple_health_export/export.xml': healthDataXml(
        ' <ClinicalRecord type="HKClinicalTypeIdentifierLabResultRecord" identifier="o1" sourceName="Old Portal" sourceURL="https://old.example/api/FHIR/DSTU2/Observation/o1" fhirVersion="1.0.2" receivedDate="2019-05-01 10:00:00 -0700" resourceFilePath="/clinical-records/Observation-o1.json"/>\n',
      ),
      ...clinical('Observation-o1.json', {
        resourceType: 'Observation',
        id: 'o1',
        status: 'final',
        code: { coding: [{ system: 'http://loinc.org', code: '2345-7' }], text: 'Glucose' },
        valueQuantity: { value: 95, unit: 'mg/dL' },
        effectiveDateTime: '2019-04-01',
      }),
      ...clinical('Condition-1.json', {
        resourceType: 'Condition',
        id: 'c1',
        patient: { reference: 'Patient/1' },
        code: { text: 'Asthma' },
        clinicalStatus: 'active',
        verificationStatus: 'confirmed',
      }),
      ...clinical('MedicationOrder-2.json', {
        resourceType: 'MedicationOrder',
        id: 'm2',
        medicationCodeableConcept: { text: 'Albuterol' },
      }),
      // DSTU2 shapes no version check names, which R4's readers would trip on.
      ...clinical('AllergyIntolerance-3.json', {
        resourceType: 'AllergyIntolerance',
        id: 'a3',
        substance: { text: 'Penicillin' },
        status: 'confirmed',
        category: 'medication',
      }),
      ...clinical('Observation-4.json', {
        resourceType: 'Observation',
        id: 'o4',
        status: 'final',
        category: { coding: [{ code: 'laboratory' }] },
        code: { text: 'Hemoglobin' },
        valueQuantity: { value: 13.5, unit: 'g/dL' },
        effectiveDateTime: '2019-04-01',
      }),
      ...clinical('Condition-5.json', {
        resourceType: 'Condition',
        id: 'c5',
        subject: { reference: 'Patient/1' },
        code: { text: 'Migraine' },
        clinicalStatus: { coding: [{ code: 'active' }] },
      }),
      ...clinical('Patient-6.json', { resourceType: 'Patient', id: '6' }),
      'apple_health_export/clinical-records/broken.json': '{ not json',
    });
    const result = readOk(await read(file));
    expect(result.records.skipped).toEqual({
      'Observation (a FHIR DSTU2 clinical record: Kin Health reads FHIR R4)': 2,
      'Condition (a FHIR DSTU2 clinical record: Kin Health reads FHIR R4)': 1,
      'MedicationOrder (a FHIR DSTU2 clinical record: Kin Health reads FHIR R4)': 1,
      'AllergyIntolerance (a FHIR DSTU2 clinical record: Kin Health reads FHIR R4)': 1,
      'Clinical records that are not a FHIR resource in JSON': 1,
    });
    expect(result.records.records.condition.map(({ values }) => values.condition_name)).toEqual([
      'Migraine',
    ]);
  });
});

describe('an Apple Health export that is refused', () => {
  it('refuses an entity declaration, an outside DOCTYPE and an entity it does not know', async () => {
    const laughs = path.join(dir, 'laughs.xml');
    writeFileSync(
      laughs,
      healthDataXml('').replace(
        '<!ELEMENT HealthData',
        '<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;"><!ELEMENT HealthData',
      ),
    );
    expect(await read(laughs)).toEqual({ ok: false, message: XML_REFUSED });
    const outside = path.join(dir, 'outside.xml');
    writeFileSync(
      outside,
      '<?xml version="1.0"?><!DOCTYPE HealthData SYSTEM "file:///etc/passwd"><HealthData/>',
    );
    expect(await read(outside)).toEqual({ ok: false, message: XML_REFUSED });
    const unknown = path.join(dir, 'unknown-entity.xml');
    writeFileSync(unknown, healthDataXml('<Record type="&lol;"/>'));
    expect(await read(unknown)).toEqual({
      ok: false,
      message: expect.stringMatching(
        /^This Apple Health export cannot be read \(.*undefined entity.*\); nothing was imported$/,
      ),
    });
  });

  it('refuses a zip bomb, and a .zip without export.xml', async () => {
    const bomb = await zipOf(path.join(dir, 'bomb.zip'), {
      'apple_health_export/export.xml': ' '.repeat(20 * 1024 * 1024),
    });
    const result = await read(bomb);
    expect(result).toEqual({
      ok: false,
      message: expect.stringMatching(
        /^This \.zip expands past its limits: apple_health_export\/export\.xml would grow to \d+ times its compressed size \(at most 200\), as a zip bomb does; nothing was imported$/,
      ),
    });
    const empty = await zipOf(path.join(dir, 'no-xml.zip'), {
      'apple_health_export/workout-routes/route_1.gpx': '<gpx/>',
    });
    expect(await read(empty)).toEqual({ ok: false, message: NO_EXPORT_XML });
  });

  it('refuses XML that is not an export', async () => {
    const other = path.join(dir, 'other.xml');
    writeFileSync(other, '<?xml version="1.0"?><ClinicalDocument xmlns="urn:hl7-org:v3"/>');
    expect(await read(other)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/not an Apple Health export/),
    });
  });
});

describe('an export refused in the reader’s language', () => {
  beforeAll(() => startServerLanguages());

  it('says why, the parser’s own words kept, in Spanish', async () => {
    const unknown = path.join(dir, 'unknown-entity-es.xml');
    writeFileSync(unknown, healthDataXml('<Record type="&lol;"/>'));
    expect(await runInLanguage('es', () => read(unknown))).toEqual({
      ok: false,
      message: expect.stringMatching(
        /^No se puede leer esta exportación de Apple Health \(.*undefined entity.*\); no se ha importado nada$/,
      ),
    });
  });

  it('names the bounds in the language’s numbers and units', async () => {
    const bomb = await zipOf(path.join(dir, 'bomb-de.zip'), {
      'apple_health_export/export.xml': ' '.repeat(20 * 1024 * 1024),
    });
    expect(await runInLanguage('de', () => read(bomb))).toEqual({
      ok: false,
      message: expect.stringMatching(
        /^Diese \.zip-Datei überschreitet beim Entpacken ihre Grenzen: apple_health_export\/export\.xml würde auf das \d+-Fache seiner komprimierten Größe anwachsen \(höchstens 200\), wie bei einer Zip-Bombe; es wurde nichts importiert$/,
      ),
    });
    const record = await zipOf(path.join(dir, 'large-record-fr.zip'), {
      'apple_health_export/export.xml': healthDataXml(''),
      'apple_health_export/clinical-records/Observation-1.json': ' '.repeat(11 * 1024 * 1024),
    });
    expect(await runInLanguage('fr', () => read(record))).toEqual({
      ok: false,
      message:
        'Le dossier clinique apple_health_export/clinical-records/Observation-1.json de ce .zip dépasse 10 Mo ; rien n’a été importé',
    });
  });
});
