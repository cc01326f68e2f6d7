/**
 * A made-up Apple Health export with the real one's structure, for the tests, the browser
 * test and the bench: `export.xml` as the Health app writes it (its DOCTYPE declarations
 * block, ExportDate, Me, Records with their source, device, unit and dates and
 * MetadataEntry children, blood pressures as Correlations whose Records also appear at the
 * top level), over a span of years at a chosen density or grown to a chosen size, and the
 * .zip around it with `export_cda.xml` and two clinical records (an R4 AllergyIntolerance
 * and an R4 Immunization with its CVX code). The readings come from a seeded generator, so
 * the same options write the same bytes.
 */
import { closeSync, createWriteStream, openSync, statSync, writeSync } from 'node:fs';
import { zipArchive } from '../../data-transfer/export-archive';

export interface AppleExportOptions {
  /** The first day, `YYYY-MM-DD`. */
  from?: string;
  years?: number;
  /** The phone's offset from UTC on every date: `-0800`. */
  offset?: string;
  birthDate?: string;
  sex?: 'HKBiologicalSexFemale' | 'HKBiologicalSexMale';
  /** A weight every this many days. */
  weightEveryDays?: number;
  bloodPressurePerDay?: number;
  heartRatePerDay?: number;
  /** Step counts a day: most of a real export, and none of it vitals. */
  stepsPerDay?: number;
  /**
   * Grow heart rate and step counts (as a watch worn longer would) until export.xml is
   * about this many bytes; the other densities stay as given.
   */
  targetBytes?: number;
  seed?: number;
  /** Files of `clinical-records/` the export names in ClinicalRecord elements, as R4. */
  clinicalRecordFiles?: readonly string[];
}

/** What was written, to check an import against. */
export interface WrittenExport {
  bytes: number;
  days: number;
  weights: number;
  bloodPressures: number;
  heartRates: number;
  /** Hours with at least one heart rate. */
  heartRateHours: number;
  steps: number;
  heartRatePerDay: number;
}

const DEFAULTS = {
  from: '2021-01-01',
  years: 3,
  offset: '-0800',
  birthDate: '1980-03-14',
  sex: 'HKBiologicalSexFemale',
  weightEveryDays: 1,
  bloodPressurePerDay: 1,
  heartRatePerDay: 48,
  stepsPerDay: 24,
  seed: 7,
} as const;

/** Apple's export header, as version 14 of the Health app writes it (abridged comments). */
const DOCTYPE = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE HealthData [
<!-- HealthKit Export Version: 14 -->
<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
<!ATTLIST HealthData
  locale CDATA #REQUIRED
>
<!ELEMENT ExportDate EMPTY>
<!ATTLIST ExportDate
  value CDATA #REQUIRED
>
<!ELEMENT Me EMPTY>
<!ATTLIST Me
  HKCharacteristicTypeIdentifierDateOfBirth         CDATA #REQUIRED
  HKCharacteristicTypeIdentifierBiologicalSex       CDATA #REQUIRED
  HKCharacteristicTypeIdentifierBloodType           CDATA #REQUIRED
  HKCharacteristicTypeIdentifierFitzpatrickSkinType CDATA #REQUIRED
  HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse CDATA #IMPLIED
>
<!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
<!ATTLIST Record
  type          CDATA #REQUIRED
  unit          CDATA #IMPLIED
  value         CDATA #IMPLIED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!-- Note: Any Records that appear as children of a correlation also appear as top-level records in this document. -->
<!ELEMENT Correlation ((MetadataEntry|Record)*)>
<!ATTLIST Correlation
  type          CDATA #REQUIRED
  sourceName    CDATA #REQUIRED
  sourceVersion CDATA #IMPLIED
  device        CDATA #IMPLIED
  creationDate  CDATA #IMPLIED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!ELEMENT MetadataEntry EMPTY>
<!ATTLIST MetadataEntry
  key   CDATA #REQUIRED
  value CDATA #REQUIRED
>
<!ELEMENT HeartRateVariabilityMetadataList (InstantaneousBeatsPerMinute*)>
<!ELEMENT InstantaneousBeatsPerMinute EMPTY>
<!ATTLIST InstantaneousBeatsPerMinute
  bpm  CDATA #REQUIRED
  time CDATA #REQUIRED
>
<!ELEMENT ClinicalRecord EMPTY>
<!ATTLIST ClinicalRecord
  type              CDATA #REQUIRED
  identifier        CDATA #REQUIRED
  sourceName        CDATA #REQUIRED
  sourceURL         CDATA #REQUIRED
  fhirVersion       CDATA #REQUIRED
  receivedDate      CDATA #REQUIRED
  resourceFilePath  CDATA #REQUIRED
>
]>
`;

const WATCH =
  'sourceName="Maria’s Apple Watch" sourceVersion="10.1" device="&lt;&lt;HKDevice: 0x283c1c2d0&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,1, software:10.1&gt;"';
const PHONE = 'sourceName="Maria’s iPhone" sourceVersion="17.1"';
const CUFF =
  'sourceName="Omron Connect" sourceVersion="7.12.0" device="&lt;&lt;HKDevice: 0x283c1d1a0&gt;, name:BP7450, manufacturer:Omron Healthcare&gt;"';
const SCALE = 'sourceName="Withings" sourceVersion="6.3.1"';

/** A small seeded generator (mulberry32): the same seed gives the same readings. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (value: number) => String(value).padStart(2, '0');

/** An Apple date on `day` at `seconds` past midnight, on the export's clock. */
function appleDate(day: string, seconds: number, offset: string) {
  const s = Math.min(86_399, Math.max(0, Math.floor(seconds)));
  return `${day} ${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)} ${offset}`;
}

const dayAfter = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

function record(
  type: string,
  source: string,
  unit: string,
  start: string,
  end: string,
  value: string,
  metadata: [string, string][] = [],
) {
  const open = `<Record type="HKQuantityTypeIdentifier${type}" ${source} unit="${unit}" creationDate="${end}" startDate="${start}" endDate="${end}" value="${value}"`;
  if (metadata.length === 0) return ` ${open}/>\n`;
  const entries = metadata.map(([key, val]) => `  <MetadataEntry key="${key}" value="${val}"/>\n`);
  return ` ${open}>\n${entries.join('')} </Record>\n`;
}

/** Bytes one heart rate and one step count take, to grow a file to a size. */
const SAMPLE_DATE = appleDate('2021-01-01', 0, '-0800');
const HEART_RATE_BYTES = record('HeartRate', WATCH, 'count/min', SAMPLE_DATE, SAMPLE_DATE, '72', [
  ['HKMetadataKeyHeartRateMotionContext', '0'],
]).length;
const STEPS_BYTES = record('StepCount', PHONE, 'count', SAMPLE_DATE, SAMPLE_DATE, '412').length;

/** Writes an export.xml at `path`. */
export function writeAppleHealthXml(path: string, options: AppleExportOptions = {}): WrittenExport {
  const o = { ...DEFAULTS, ...options };
  const days = Math.round(o.years * 365.25);
  let heartRatePerDay = o.heartRatePerDay;
  let stepsPerDay = o.stepsPerDay;
  if (o.targetBytes) {
    // The rest of a day (weights, pressures) is small beside a watch's readings.
    const perDay = o.targetBytes / days - 1200 * o.bloodPressurePerDay - 300 / o.weightEveryDays;
    const share = perDay / (HEART_RATE_BYTES * 0.6 + STEPS_BYTES * 0.4);
    heartRatePerDay = Math.max(1, Math.round(share * 0.6));
    stepsPerDay = Math.max(1, Math.round(share * 0.4));
  }
  const next = random(o.seed);
  const written: WrittenExport = {
    bytes: 0,
    days,
    weights: 0,
    bloodPressures: 0,
    heartRates: 0,
    heartRateHours: 0,
    steps: 0,
    heartRatePerDay,
  };
  const fd = openSync(path, 'w');
  let buffer = '';
  const put = (text: string) => {
    buffer += text;
    if (buffer.length > 1 << 20) {
      writeSync(fd, buffer);
      buffer = '';
    }
  };
  try {
    const exportDate = appleDate(dayAfter(o.from, days), 36_000, o.offset);
    put(DOCTYPE);
    put(`<HealthData locale="en_US">\n <ExportDate value="${exportDate}"/>\n`);
    put(
      ` <Me HKCharacteristicTypeIdentifierDateOfBirth="${o.birthDate}" HKCharacteristicTypeIdentifierBiologicalSex="${o.sex}" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet" HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse="None"/>\n`,
    );
    let weight = 172 + next() * 10;
    for (let index = 0; index < days; index += 1) {
      const day = dayAfter(o.from, index);
      const at = (seconds: number) => appleDate(day, seconds, o.offset);
      if (index % o.weightEveryDays === 0) {
        weight += (next() - 0.5) * 0.8;
        const time = at(7 * 3600 + next() * 1800);
        put(record('BodyMass', SCALE, 'lb', time, time, weight.toFixed(1)));
        written.weights += 1;
      }
      const hours = new Set<number>();
      for (let beat = 0; beat < heartRatePerDay; beat += 1) {
        const seconds = ((beat + next()) * 86_400) / heartRatePerDay;
        hours.add(Math.floor(seconds / 3600));
        const time = at(seconds);
        const pulse = Math.round(58 + next() * 50);
        put(
          record('HeartRate', WATCH, 'count/min', time, time, String(pulse), [
            ['HKMetadataKeyHeartRateMotionContext', String(Math.floor(next() * 3))],
          ]),
        );
      }
      written.heartRates += heartRatePerDay;
      written.heartRateHours += hours.size;
      for (let step = 0; step < stepsPerDay; step += 1) {
        const seconds = ((step + next()) * 86_400) / stepsPerDay;
        put(
          record(
            'StepCount',
            PHONE,
            'count',
            at(seconds),
            at(seconds + 300),
            String(Math.round(next() * 900)),
          ),
        );
      }
      written.steps += stepsPerDay;
      for (let reading = 0; reading < o.bloodPressurePerDay; reading += 1) {
        const time = at(((reading + 0.3 + next() * 0.4) * 86_400) / o.bloodPressurePerDay);
        const systolic = String(Math.round(112 + next() * 25));
        const diastolic = String(Math.round(68 + next() * 15));
        const pair =
          record('BloodPressureSystolic', CUFF, 'mmHg', time, time, systolic) +
          record('BloodPressureDiastolic', CUFF, 'mmHg', time, time, diastolic);
        // Apple writes each of the Correlation's Records at the top level too.
        put(pair);
        put(
          ` <Correlation type="HKCorrelationTypeIdentifierBloodPressure" ${CUFF} creationDate="${time}" startDate="${time}" endDate="${time}">\n` +
            `  <MetadataEntry key="HKWasUserEntered" value="0"/>\n` +
            pair.replace(/^ /gm, '  ') +
            ' </Correlation>\n',
        );
        written.bloodPressures += 1;
      }
    }
    for (const file of o.clinicalRecordFiles ?? []) {
      const type = file.split('-')[0] ?? 'Resource';
      put(
        ` <ClinicalRecord type="HKClinicalTypeIdentifier${type}Record" identifier="${file}" sourceName="Valley Health" sourceURL="https://fhir.valleyhealth.example/api/FHIR/R4/${type}/${file}" fhirVersion="4.0.1" receivedDate="${exportDate}" resourceFilePath="/clinical-records/${file}"/>\n`,
      );
    }
    put('</HealthData>\n');
    writeSync(fd, buffer);
  } finally {
    closeSync(fd);
  }
  written.bytes = statSync(path).size;
  return written;
}

/** The two clinical records of the .zip, as a portal's R4 server writes them. */
export const CLINICAL_RECORDS = {
  'AllergyIntolerance-8E1B2C3D.json': {
    resourceType: 'AllergyIntolerance',
    id: 'eAll.7Lm1xYq',
    clinicalStatus: {
      coding: [
        {
          system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical',
          code: 'active',
        },
      ],
    },
    verificationStatus: {
      coding: [
        {
          system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-verification',
          code: 'confirmed',
        },
      ],
    },
    category: ['food'],
    criticality: 'high',
    code: {
      coding: [{ system: 'http://snomed.info/sct', code: '91935009', display: 'Peanut' }],
      text: 'Peanut',
    },
    patient: { reference: 'Patient/eMaria1', display: 'Maria Lopez' },
    recordedDate: '2019-04-02',
    reaction: [
      {
        manifestation: [
          {
            coding: [
              { system: 'http://snomed.info/sct', code: '39579001', display: 'Anaphylaxis' },
            ],
            text: 'Anaphylaxis',
          },
        ],
        severity: 'severe',
      },
    ],
  },
  'Immunization-4A5B6C7D.json': {
    resourceType: 'Immunization',
    id: 'eImm.3Qr9Tz',
    status: 'completed',
    vaccineCode: {
      coding: [
        {
          system: 'http://hl7.org/fhir/sid/cvx',
          code: '140',
          display: 'Influenza, seasonal, injectable, preservative free',
        },
      ],
      text: 'Influenza vaccine',
    },
    patient: { reference: 'Patient/eMaria1', display: 'Maria Lopez' },
    occurrenceDateTime: '2022-10-14T10:30:00-07:00',
    primarySource: true,
    lotNumber: 'FL2291',
  },
} as const;

/**
 * Writes the .zip 'Export All Health Data' makes at `path`: export.xml (written at
 * `xmlPath` first), export_cda.xml, and the clinical records (CLINICAL_RECORDS, or others).
 */
export async function writeAppleHealthZip(
  path: string,
  xmlPath: string,
  options: AppleExportOptions = {},
  clinicalRecords: Record<string, unknown> = CLINICAL_RECORDS,
): Promise<WrittenExport> {
  const written = writeAppleHealthXml(xmlPath, {
    ...options,
    clinicalRecordFiles: Object.keys(clinicalRecords),
  });
  const archive = zipArchive();
  const done = new Promise<void>((resolve, reject) => {
    const output = createWriteStream(path);
    output.on('close', () => resolve());
    output.on('error', reject);
    archive.on('error', reject);
    archive.pipe(output);
  });
  archive.file(xmlPath, { name: 'apple_health_export/export.xml' });
  archive.append(
    '<?xml version="1.0" encoding="UTF-8"?>\n<ClinicalDocument xmlns="urn:hl7-org:v3"></ClinicalDocument>\n',
    { name: 'apple_health_export/export_cda.xml' },
  );
  for (const [name, resource] of Object.entries(clinicalRecords)) {
    archive.append(JSON.stringify(resource, null, 2), {
      name: `apple_health_export/clinical-records/${name}`,
    });
  }
  await archive.finalize();
  await done;
  return written;
}

/**
 * A small export.xml around `records` (Record and Correlation elements as Apple writes
 * them), for tests of one reading at a time.
 */
export function healthDataXml(records: string, birthDate: string = DEFAULTS.birthDate): string {
  return (
    `${DOCTYPE}<HealthData locale="en_US">\n <ExportDate value="2024-06-01 10:00:00 -0700"/>\n` +
    ` <Me HKCharacteristicTypeIdentifierDateOfBirth="${birthDate}" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexMale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet"/>\n` +
    `${records}</HealthData>\n`
  );
}

/** One Record element: `appleRecord('BodyMass', 'lb', '2024-01-05 08:12:00 -0800', '165.2')`. */
export function appleRecord(type: string, unit: string, date: string, value: string): string {
  const escaped = unit.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return record(type, PHONE, escaped, date, date, value);
}
