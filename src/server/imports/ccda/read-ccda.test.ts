import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runInLanguage, startServerLanguages } from '../../i18n/server-language';
import type { ReadFile, ReadFileResult } from '../file-readers';
import { XML_REFUSED } from '../xml-safety';
import { MAX_CCDA_BYTES, NOT_CCDA, readCcdaFile } from './read-ccda';

const TESTDATA = fileURLToPath(new URL('../testdata/ccda/', import.meta.url));
const HL7_CCD = join(TESTDATA, 'hl7/ccd.xml');

const read = (path: string) =>
  readCcdaFile({ path, name: path.split('/').pop() ?? '', size: statSync(path).size }, {});

function readOk(result: ReadFileResult): ReadFile {
  if (!('kind' in result)) throw new Error(`refused: ${result.message}`);
  return result;
}

const scratch = mkdtempSync(join(tmpdir(), 'kin-ccda-'));
// Every language's words, for the refusals read in another.
beforeAll(() => startServerLanguages());
function written(name: string, text: string): string {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
}

const sourceIds = (file: ReadFile) =>
  Object.values(file.records.records).flatMap((list) => list.map((record) => record.source_id));

describe('reading a C-CDA', () => {
  it("reads HL7's example CCD into the person's allergies, medications, problems, shots and labs", async () => {
    const file = readOk(await read(HL7_CCD));
    expect(file.kind).toBe('ccda');
    expect(file.patient).toEqual({
      name: 'Eve Betterhalf',
      birth_date: '1975-05-01',
      sex: 'female',
      ids: [],
    });
    const { records } = file.records;
    expect(records.allergy.map((a) => a.values)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          substance: 'Penicillin',
          reaction: 'Nausea',
          severity: 'Mild',
          category: 'Medication',
        }),
        expect.objectContaining({
          substance: 'codeine',
          reaction: 'Wheezing',
          severity: 'Moderate',
        }),
      ]),
    );
    const atenolol = records.medication.find((m) =>
      m.values.medication_name.startsWith('atenolol'),
    );
    expect(atenolol?.values).toMatchObject({
      medication_name: 'atenolol 25 MG Oral Tablet',
      start_date: '2012-03-18',
      end_date: null,
    });
    expect(atenolol?.values.dosage).toContain('every 12 hours');
    expect(records.medication.map((m) => m.values.medication_name)).toContain(
      'albuterol 0.09 MG/ACTUAT [Proventil]',
    );
    expect(records.visit.length).toBe(1);
    expect(records.condition.map((c) => c.values.condition_name)).toEqual(
      expect.arrayContaining(['Pneumonia', 'Chest pain', 'Colonic polypectomy']),
    );
    // A problem with an end is resolved; one without, still tracked, is active.
    const problems = records.condition.map((c) => [
      c.values.condition_name,
      c.values.diagnosis_date,
      c.values.status,
    ]);
    expect(problems).toEqual(
      expect.arrayContaining([
        ['Pneumonia', '1998-03-10', 'Resolved'],
        ['Chest pain', '2007-04-14', 'Active'],
      ]),
    );
    expect(
      records.condition.find((c) => c.values.condition_name === 'Colonic polypectomy')?.values,
    ).toMatchObject({ status: 'Resolved', diagnosis_date: '2011-02-03' });
    // CVX codes the vaccine schedule counts.
    expect(records.shot.map((s) => [s.values.vaccine_code, s.values.date_administered])).toEqual(
      expect.arrayContaining([
        ['88', '1999-01-01'],
        ['33', '1998-12-15'],
      ]),
    );
    // LOINC, value, UCUM unit and range; the flag follows from the range (Low here).
    expect(records.lab_result.find((l) => l.values.loinc_code === '777-3')?.values).toMatchObject({
      test_name: 'Platelets',
      result: '123',
      unit: '10*9/L',
      range_low: '150',
      range_high: '350',
      collected_date: '2008-03-19',
    });
    expect(records.insurance[0]?.values).toMatchObject({ provider_name: 'Good Health Insurance' });
    expect(records.vital.length).toBeGreaterThan(0);
    expect(records.contact.map((c) => c.values.contact_name)).toContain('Harold Hippocrates');
  });

  it("reads the care team as the person's contacts, and an R1.1 CCD as well as R2.1", async () => {
    const careTeam = written(
      'care-team.xml',
      `<ClinicalDocument xmlns="urn:hl7-org:v3">
        <recordTarget><patientRole><id root="1.2.3" extension="9"/><patient>
          <name use="L"><given>Leo</given><given qualifier="CL">Lee</given><family>Garcia</family></name>
          <administrativeGenderCode code="M"/><birthTime value="20190304"/>
        </patient></patientRole></recordTarget>
        <component><structuredBody><component><section>
          <templateId root="2.16.840.1.113883.10.20.22.2.500" extension="2022-06-01"/>
          <code code="85847-2" codeSystem="2.16.840.1.113883.6.1"/><title>Care Team</title>
          <entry><organizer classCode="CLUSTER" moodCode="EVN">
            <templateId root="2.16.840.1.113883.10.20.22.4.500"/><id root="1.2.3" extension="team"/>
            <component><act classCode="PCPR" moodCode="EVN">
              <templateId root="2.16.840.1.113883.10.20.22.4.500.1"/><id root="1.2.3" extension="m1"/>
              <performer typeCode="PRF"><assignedEntity><id root="2.16.840.1.113883.4.6" extension="123"/>
                <telecom use="WP" value="tel:+1-555-555-1000"/>
                <assignedPerson><name><given>Ana</given><family>Ruiz</family></name></assignedPerson>
              </assignedEntity></performer>
            </act></component>
          </organizer></entry>
        </section></component></structuredBody></component>
      </ClinicalDocument>`,
    );
    const team = readOk(await read(careTeam));
    expect(team.patient).toEqual({
      name: 'Leo Garcia',
      birth_date: '2019-03-04',
      sex: 'male',
      ids: [],
    });
    expect(team.records.records.contact.map((c) => c.values)).toEqual([
      expect.objectContaining({
        contact_name: 'Ana Ruiz',
        contact_type: 'Doctor',
        phone_number: '+1-555-555-1000',
      }),
    ]);
    const plain = written(
      'plain-name.xml',
      '<ClinicalDocument xmlns="urn:hl7-org:v3"><recordTarget><patientRole><patient><name> Leo Garcia </name></patient></patientRole></recordTarget></ClinicalDocument>',
    );
    expect(readOk(await read(plain)).patient?.name).toBe('Leo Garcia');
    const r11 = readOk(await read(join(TESTDATA, 'sample-ccdas/nist-ccd-ambulatory-r1.1.xml')));
    expect(r11.patient).toMatchObject({ name: 'Myra Jones', birth_date: '1947-05-01' });
    expect(r11.records.imported).toMatchObject({
      allergy: 3,
      condition: expect.any(Number),
      shot: 2,
      lab_result: 3,
      medication: 2,
    });
  });

  it('names every record the same way when the same file is read again', async () => {
    const first = sourceIds(readOk(await read(HL7_CCD)));
    const second = sourceIds(readOk(await read(HL7_CCD)));
    expect(first.length).toBeGreaterThan(20);
    expect(new Set(first).size).toBe(first.length);
    expect(second).toEqual(first);
  });

  it('refuses a C-CDA that declares a document type or entities, before parsing it', async () => {
    const bomb = written(
      'bomb.xml',
      '<?xml version="1.0"?>\n<!DOCTYPE ClinicalDocument [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>\n' +
        '<ClinicalDocument xmlns="urn:hl7-org:v3"><title>&b;</title></ClinicalDocument>',
    );
    expect(await read(bomb)).toEqual({ ok: false, message: XML_REFUSED });
    const xxe = written(
      'xxe.xml',
      '<!DOCTYPE ClinicalDocument SYSTEM "file:///etc/passwd"><ClinicalDocument xmlns="urn:hl7-org:v3"/>',
    );
    expect(await read(xxe)).toEqual({ ok: false, message: XML_REFUSED });
  });

  it('refuses XML that is not a C-CDA with a sentence saying so', async () => {
    const other = written('feed.xml', '<?xml version="1.0"?>\n<rss version="2.0"><channel/></rss>');
    expect(await read(other)).toEqual({ ok: false, message: NOT_CCDA });
    const wrongNamespace = written(
      'wrong.xml',
      '<ClinicalDocument xmlns="urn:example"><title>x</title></ClinicalDocument>',
    );
    expect(await read(wrongNamespace)).toEqual({ ok: false, message: NOT_CCDA });
  });

  it('refuses a document of 100,000 entries without parsing it', async () => {
    const entry =
      '<entry><observation classCode="OBS" moodCode="EVN"><code code="718-7" codeSystem="2.16.840.1.113883.6.1"/></observation></entry>';
    const big = written(
      'big.xml',
      `<ClinicalDocument xmlns="urn:hl7-org:v3"><component><structuredBody><component><section>${entry.repeat(100_000)}</section></component></structuredBody></component></ClinicalDocument>`,
    );
    const started = performance.now();
    expect(await read(big)).toEqual({
      ok: false,
      message:
        'This C-CDA document holds more than 5,000 entries, more than Kin Health reads from one document.',
    });
    expect(performance.now() - started).toBeLessThan(5_000);
    // In the reader's language, the bound written its way.
    expect(await runInLanguage('de', () => read(big))).toEqual({
      ok: false,
      message:
        'Dieses C-CDA-Dokument enthält mehr als 5.000 Einträge, mehr als Kin Health aus einem Dokument liest.',
    });
  });

  it('refuses a file over its bound in the reader’s language', async () => {
    const path = written('large.xml', '<ClinicalDocument xmlns="urn:hl7-org:v3"/>');
    const file = { path, name: 'large.xml', size: MAX_CCDA_BYTES + 1 };
    expect(await readCcdaFile(file, {})).toEqual({
      ok: false,
      message:
        'This C-CDA file is larger than 32 MB, more than Kin Health reads from one document.',
    });
    expect(await runInLanguage('ru', () => readCcdaFile(file, {}))).toEqual({
      ok: false,
      message: 'Этот файл C-CDA больше 32 МБ — больше, чем Kin Health читает из одного документа.',
    });
  });
});
