/**
 * Reading an Apple Health export (CONTRACT §6 'Bring records in', decision 0055): the .zip
 * the Health app's 'Export All Health Data' writes, or its `export.xml` alone. The XML is
 * read as a stream, never whole: the person's birth date and sex from `Me`, and the
 * measurements Kin keeps as vitals (apple-vitals.ts) within the days asked for; the
 * clinical records beside it go through the FHIR import (clinical-records.ts). The records
 * of both come back as one import's, with what was skipped and why.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { ImportedRecords } from '../../fhir/fhir-import';
import { importSummary, type ImportedCounts } from '../../fhir/fhir-import';
import { FHIR_RECORD_TYPES } from '../../fhir/fhir-source';
import type { FilePatient, FileReader, ReadFileResult, ReadRecords } from '../file-readers';
import { ownCopy } from './apple-dates';
import { AppleVitals } from './apple-vitals';
import { readClinicalRecords } from './clinical-records';
import { parseExportXml, type ExportVisitor } from './export-xml';
import { openExportZip, ZipRefused, type ClinicalRecordFile } from './export-zip';

/** Bytes read from disk at a time (measured: 1 MB reads were no faster, and held more). */
const READ_CHUNK = 64 * 1024;

const SEX_OF: Record<string, FilePatient['sex']> = {
  HKBiologicalSexFemale: 'female',
  HKBiologicalSexMale: 'male',
};

/** The person `Me` names: Apple keeps no name in the export. */
function patientOf(attributes: Record<string, string>): FilePatient {
  const birth = ownCopy(attributes.HKCharacteristicTypeIdentifierDateOfBirth ?? '');
  return {
    name: null,
    birth_date: /^\d{4}-\d{2}-\d{2}$/.test(birth) ? birth : null,
    sex: SEX_OF[attributes.HKCharacteristicTypeIdentifierBiologicalSex ?? ''] ?? null,
    ids: [],
  };
}

async function isZip(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const start = Buffer.alloc(4);
    const { bytesRead } = await handle.read(start, 0, 4, 0);
    return bytesRead === 4 && start.readUInt32LE(0) === 0x04034b50;
  } finally {
    await handle.close();
  }
}

/** The vitals and the clinical records' records as one import's. */
function merged(vitals: ReturnType<AppleVitals['finish']>, clinical: ReadRecords): ReadRecords {
  const records = { ...clinical.records, vital: [...vitals.records, ...clinical.records.vital] };
  const skipped = { ...clinical.skipped };
  for (const [reason, count] of Object.entries(vitals.skipped))
    skipped[reason] = (skipped[reason] ?? 0) + count;
  const imported: ImportedCounts = {};
  for (const type of FHIR_RECORD_TYPES) {
    const count = (records as ImportedRecords)[type].length;
    if (count > 0) imported[type] = count;
  }
  if (clinical.documents.length > 0) imported.document = clinical.documents.length;
  return {
    ...clinical,
    records,
    imported,
    skipped,
    summary: importSummary(imported, skipped, clinical.skipped_documents),
  };
}

export const readAppleHealthFile: FileReader = async (file, options): Promise<ReadFileResult> => {
  const vitals = new AppleVitals({ from: options.from, to: options.to });
  let patient: FilePatient | null = null;
  /** The FHIR version Apple names for each clinical record's file. */
  const versions = new Map<string, string>();
  const visitor: ExportVisitor = {
    me: (attributes) => (patient = patientOf(attributes)),
    record: (record) => vitals.add(record),
    clinicalRecord: ({ resourceFilePath, fhirVersion }) =>
      versions.set(resourceFilePath.split('/').pop() ?? '', fhirVersion),
  };
  const clinical: ClinicalRecordFile[] = [];
  let refusal: string | null;
  if (await isZip(file.path)) {
    try {
      const zip = await openExportZip(file.path);
      try {
        refusal = await parseExportXml(await zip.xml(), visitor);
        if (!refusal) for await (const record of zip.clinicalRecords()) clinical.push(record);
      } finally {
        zip.close();
      }
    } catch (error) {
      if (error instanceof ZipRefused) return { ok: false, message: error.message };
      throw error;
    }
  } else {
    refusal = await parseExportXml(
      createReadStream(file.path, { highWaterMark: READ_CHUNK }),
      visitor,
    );
  }
  if (refusal) return { ok: false, message: refusal };
  return {
    kind: 'apple-health',
    patient,
    records: merged(vitals.finish(), readClinicalRecords(clinical, versions)),
    problems: [],
  };
};
