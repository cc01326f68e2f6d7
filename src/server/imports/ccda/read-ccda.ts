/**
 * Reading a C-CDA (CONTRACT §6 'Bring records in'; decision 0054): a patient portal's
 * 'Download my record' file — CCD, referral, discharge or visit summary, R1.1 or R2.1 — as the
 * records the FHIR import already matches and writes. The file is refused before any parser
 * sees it when its prologue declares entities or a document type (xml-safety.ts), when it is
 * larger than MAX_CCDA_BYTES, or when it holds more than MAX_CCDA_ENTRIES entries; then
 * @medplum/ccda parses and converts it (ccda-convert.ts) and the FHIR import reads the Bundle.
 */
import { readFile } from 'node:fs/promises';
import { convertXmlToCcda } from '@medplum/ccda';
import type { Ccda } from '@medplum/ccda';
import type { Sex } from '../../../shared/family-members';
import { importFhirBundle } from '../../fhir/fhir-import';
import type { FilePatient, FileReader, ReadFileResult } from '../file-readers';
import { prologueOf, xmlRefusal } from '../xml-safety';
import { ccdaBundle } from './ccda-convert';
import { type Node, isNode, nodes, textContent } from './ccda-nodes';
import { ccdaDay } from './ccda-time';
import { formatNumber } from '../../../shared/dates';
import { key, tr } from '../../../shared/i18n/translate';

/** A portal's C-CDA is well under 5 MB; a larger one is not a record of one person. */
export const MAX_CCDA_BYTES = 32 * 1024 * 1024;
/** Entries (`<entry>`) read from one document: 5,000 read in about 5 s (decision 0054). */
export const MAX_CCDA_ENTRIES = 5_000;

const MB = 1024 * 1024;
/** The refusal of a file over MAX_CCDA_BYTES, in the language in force. */
export const tooLarge = () =>
  tr('This C-CDA file is larger than {size} MB, more than Kin Health reads from one document.', {
    size: formatNumber(MAX_CCDA_BYTES / MB),
  });
export const NOT_CCDA = key(
  'This XML file is not a C-CDA document: it has no ClinicalDocument in the HL7 v3 namespace (urn:hl7-org:v3).',
);
/** The refusal of a document of more than MAX_CCDA_ENTRIES entries, in the language in force. */
export const tooManyEntries = () =>
  tr(
    'This C-CDA document holds more than {most} entries, more than Kin Health reads from one document.',
    { most: formatNumber(MAX_CCDA_ENTRIES) },
  );
export const UNREADABLE = key('This C-CDA document could not be read: its XML is not well formed.');

const refuse = (message: string): ReadFileResult => ({ ok: false, message });

/** Whether the document's first element is a ClinicalDocument in the HL7 v3 namespace. */
export function isClinicalDocument(text: string): boolean {
  const prologue = prologueOf(text.slice(0, 1024 * 1024));
  if (prologue === null) return false;
  const start = text.slice(prologue.length, prologue.length + 4096);
  const tag = /^<(?:([A-Za-z_][\w.-]*):)?ClinicalDocument\b([^>]*)>/.exec(start);
  if (!tag) return false;
  const prefix = tag[1] ? `:${tag[1]}` : '';
  return new RegExp(`xmlns${prefix}\\s*=\\s*["']urn:hl7-org:v3["']`).test(tag[2] ?? '');
}

/** How many entries the document holds, counted without parsing it. */
function entryCount(text: string, stopAt: number): number {
  const pattern = /<(?:[A-Za-z_][\w.-]*:)?entry[\s>/]/g;
  let count = 0;
  while (pattern.exec(text) && count <= stopAt) count += 1;
  return count;
}

const SEX: Record<string, Sex> = { F: 'female', M: 'male' };

/** The patient of the document's record target: name, birth date and sex (no ids: the portal's). */
export function ccdaPatient(ccda: Ccda): FilePatient | null {
  const patient = nodes(nodes(ccda.recordTarget)[0]?.patientRole)[0]?.patient as Node | undefined;
  if (!patient) return null;
  const names = nodes(patient.name);
  const name = names.find((item) => item['@_use'] === 'L') ?? names[0];
  const givens: unknown[] = Array.isArray(name?.given) ? name.given : [name?.given];
  // A 'call me' name (qualifier CL) is a nickname, not part of the name a member has here.
  const given = givens.filter((item) => !isNode(item) || item['@_qualifier'] !== 'CL');
  const family = textContent(name?.family);
  const parts = [...given.map(textContent), family].filter(Boolean).join(' ');
  // A name written as plain text (`<name>Leo Garcia</name>`) has no parts.
  const [first] = Array.isArray(patient.name) ? patient.name : [patient.name];
  const full = parts || (typeof first === 'string' ? first.trim() : '');
  const code = nodes(patient.administrativeGenderCode)[0]?.['@_code'];
  return {
    name: full || null,
    birth_date: ccdaDay(nodes(patient.birthTime)[0]),
    sex: (typeof code === 'string' && SEX[code]) || null,
    ids: [],
  };
}

/** Reads a C-CDA file into the records it holds and the patient it names. */
export const readCcdaFile: FileReader = async (file) => {
  if (file.size > MAX_CCDA_BYTES) return refuse(tooLarge());
  const text = await readFile(file.path, 'utf8');
  if (Buffer.byteLength(text) > MAX_CCDA_BYTES) return refuse(tooLarge());
  const refusal = xmlRefusal(text, 'none');
  if (refusal) return refuse(refusal);
  if (!isClinicalDocument(text)) return refuse(NOT_CCDA);
  if (entryCount(text, MAX_CCDA_ENTRIES) > MAX_CCDA_ENTRIES) return refuse(tooManyEntries());
  let ccda: Ccda;
  try {
    ccda = convertXmlToCcda(text);
  } catch {
    return refuse(UNREADABLE);
  }
  if (!ccda) return refuse(NOT_CCDA);
  const patient = ccdaPatient(ccda);
  const records = importFhirBundle(ccdaBundle(ccda), { familyMemberId: null });
  if (!records.ok) return records;
  return { kind: 'ccda', patient, records, problems: [] };
};
