/**
 * Importing a FHIR R4 Bundle: refuse what is not one (with a sentence a user can read),
 * then read each resource into record values (mappings/, one module per record type), fit
 * them to the product's field limits, check them with each type's own schema, and give each
 * a stable source_id so that importing the same file again can skip what it already brought
 * in. Documents (a DocumentReference with a file) are read with their file and the record
 * they belong to (fhir-documents.ts). Nothing is saved here: the caller puts the records and documents
 * into the person the user chose.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type {
  Attachment,
  Bundle,
  BundleEntry,
  DocumentReference,
  Practitioner,
  PractitionerRole,
  Reference,
  Resource,
} from '@medplum/fhirtypes';
import { definitionsByType } from '../../shared/records';
import { withUntimedAsNoSetTime } from '../../shared/records/medications';
import type { FieldMap } from '../../shared/records/definition';
import { FHIR_RECORD_TYPES, type FhirRecordType, type FhirValues } from './fhir-source';
import { resourceRecords } from './mappings';
import {
  IGNORE,
  SKIP,
  type ImportContext,
  type MapResult,
  type MappedRecord,
} from './mappings/mapping';
import {
  fileAttachmentOf,
  readFileDocument,
  type ImportedDocument,
  type SkippedDocument,
} from './fhir-documents';
import { nonR4Evidence } from './fhir-version';
import { currentLanguage, currentLocale, key, tr } from '../../shared/i18n/translate';
import { formatNumber } from '../../shared/dates';
import { translateMessage } from '../i18n/server-language';
import { groupVitalReadings, readVitalObservation, type VitalReading } from './mappings/vitals';

export interface FhirImportOptions {
  /** The family member the records go to; null when they are the account holder's own. */
  familyMemberId: string | null;
}

export interface ImportedRecord<V> {
  /** Where the record came from, the same on every import of the same file. */
  source_id: string;
  /** The resource's own id: the record's id here when the file is this product's export. */
  record_id?: string;
  /** What the type's schema accepts as a new record. */
  values: V;
}

export type ImportedRecords = { [K in FhirRecordType]: ImportedRecord<FhirValues[K]>[] };

/** What an import brings: a record type, or documents. */
export type ImportedKind = FhirRecordType | 'document';

/** How many of each kind were brought in (kinds with none are left out). */
export type ImportedCounts = Partial<Record<ImportedKind, number>>;

export type FhirImportResult =
  | { ok: false; message: string }
  | {
      ok: true;
      records: ImportedRecords;
      /** DocumentReferences with a file, to be stored as uploads are. */
      documents: ImportedDocument[];
      /** Records and documents read, per kind. */
      imported: ImportedCounts;
      /** Resources not brought in, per FHIR resource type. */
      skipped: Record<string, number>;
      /** The documents among them, and why each was not. */
      skipped_documents: SkippedDocument[];
      /** 'Imported 12 medications, 4 conditions; skipped 30 Observations' */
      summary: string;
    };

export const ACCEPTED_BUNDLE_TYPES = ['collection', 'document', 'searchset', 'transaction'];
const MAX_ENTRIES = 200_000;

const refuse = (message: string): FhirImportResult => ({ ok: false, message });

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A count as the language in force writes it, ungrouped as the English message always was. */
const plainNumber = (value: number) => formatNumber(value, { useGrouping: false });

/** Why a value cannot be imported as an R4 Bundle (in the language in force), or null when it can. */
function refusalOf(json: unknown): string | null {
  if (!isObject(json)) return tr('This file is not a FHIR R4 Bundle: it is not a JSON object.');
  const { resourceType, type, entry } = json;
  if (typeof resourceType !== 'string') {
    return tr('This file is not a FHIR R4 Bundle: it has no resourceType, so it is not FHIR.');
  }
  if (resourceType !== 'Bundle') {
    return tr(
      "This file is a single FHIR {type}, not a Bundle. Import a Bundle, such as a patient's $everything export.",
      { type: resourceType },
    );
  }
  if (entry !== undefined && !Array.isArray(entry)) {
    return tr('This file is not a FHIR R4 Bundle: its entries are not a list.');
  }
  const entries = (entry as unknown[] | undefined) ?? [];
  if (entries.length > MAX_ENTRIES) {
    return tr('This Bundle has {entries} entries; at most {most} can be imported at once.', {
      entries: plainNumber(entries.length),
      most: plainNumber(MAX_ENTRIES),
    });
  }
  const foreign = nonR4Evidence(json, entries);
  if (foreign) {
    return tr(
      'This file is a FHIR {version} Bundle, not R4 (its {evidence}). Kin Health imports FHIR R4 Bundles only.',
      { version: foreign.version, evidence: foreign.evidence },
    );
  }
  if (typeof type !== 'string') return tr('This file is not a FHIR R4 Bundle: it has no type.');
  if (!ACCEPTED_BUNDLE_TYPES.includes(type)) {
    return tr(
      "This Bundle is of type '{type}', which cannot be imported: Kin Health imports collection, document, searchset and transaction Bundles.",
      { type },
    );
  }
  // R4 requires a policy's insurer; without one the policy names no one to claim from.
  const coverage = entries.find(
    (item) =>
      isObject(item) &&
      isObject(item.resource) &&
      item.resource.resourceType === 'Coverage' &&
      !(Array.isArray(item.resource.payor) && item.resource.payor.length > 0),
  ) as { resource: Json } | undefined;
  if (coverage) {
    const name = typeof coverage.resource.id === 'string' ? ` '${coverage.resource.id}'` : '';
    return tr(
      'This file is not a valid FHIR R4 Bundle: its Coverage{name} has no payor (the insurer), which R4 requires.',
      { name },
    );
  }
  const patients = entries.filter(
    (item) => isObject(item) && isObject(item.resource) && item.resource.resourceType === 'Patient',
  );
  if (patients.length > 1) {
    return tr(
      "This Bundle holds the records of {patients} patients; import one person's Bundle at a time.",
      { patients: plainNumber(patients.length) },
    );
  }
  return null;
}

/** Resources that belong to the document or the person, not to any record. */
const FRAME_TYPES = new Set(['Patient', 'Composition', 'CareTeam']);

/** The bundle's resources by every address a reference may use. */
function indexBundle(entries: BundleEntry[]) {
  const byAddress = new Map<string, Resource>();
  for (const { fullUrl, resource } of entries) {
    if (!resource) continue;
    if (fullUrl) byAddress.set(fullUrl, resource);
    if (resource.id) byAddress.set(`${resource.resourceType}/${resource.id}`, resource);
  }
  const used = new Set<Resource>();
  const find = (reference: Reference | undefined): Resource | undefined => {
    const text = reference?.reference;
    if (!text || text.startsWith('#')) return undefined;
    const relative = /([A-Z][A-Za-z]+\/[A-Za-z0-9\-.]{1,64})(?:\/_history\/[^/]+)?$/.exec(
      text,
    )?.[1];
    return byAddress.get(text) ?? (relative ? byAddress.get(relative) : undefined);
  };
  return {
    used,
    find,
    resolve(reference: Reference | undefined) {
      const resource = find(reference);
      if (resource) used.add(resource);
      return resource;
    },
  };
}

/** The stable name of an entry's resource: its absolute address, else its type and id. */
function sourceIdOf(entry: BundleEntry, resource: Resource): string {
  if (entry.fullUrl && /^(urn:uuid:|urn:oid:|https?:\/\/)/.test(entry.fullUrl))
    return entry.fullUrl;
  if (resource.id) return `${resource.resourceType}/${resource.id}`;
  const digest = createHash('sha256').update(JSON.stringify(resource)).digest('hex');
  return `sha256:${digest}`;
}

// ---- fitting values to the product's limits ------------------------------------------

/* eslint-disable no-control-regex -- characters the schemas refuse are replaced, not kept */
const NOT_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;
/* eslint-enable no-control-regex */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text cleaned of what no one typed, and cut to `max` (ending in '…') when longer. */
export function fitText(value: unknown, max: number): string | null {
  if (typeof value !== 'string') return null;
  const clean = value.replace(NOT_TEXT, ' ').replace(LONE_SURROGATE, '\uFFFD').trim();
  if (!clean) return null;
  if (clean.length <= max) return clean;
  let cut = clean.slice(0, max - 1);
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

/** Values cut to their fields' limits: long texts shortened, an unusable phone or email dropped. */
function fitToFields(fields: FieldMap, values: Json): Json {
  const fitted: Json = { ...values };
  for (const [name, field] of Object.entries(fields)) {
    const value = values[name];
    if (typeof value !== 'string' || !field.maxLength) continue;
    if (field.kind === 'text' || field.kind === 'textarea') {
      fitted[name] = fitText(value, field.maxLength);
    } else {
      const text = fitText(value, Number.MAX_SAFE_INTEGER);
      const usable =
        text !== null &&
        text.length <= field.maxLength &&
        (field.kind !== 'email' || z.email().safeParse(text).success);
      fitted[name] = usable ? text : null;
    }
  }
  return fitted;
}

/** A mapped record as its type's schema outputs it, or null when the schema refuses it. */
function checkedValues(mapped: MappedRecord, familyMemberId: string | null): object | null {
  const { type } = mapped;
  const member = type === 'contact' ? {} : { family_member_id: familyMemberId };
  const definition = definitionsByType[type];
  let values = fitToFields(definition.fields, { ...member, ...mapped.values });
  // A start after the end cannot be saved; the end says more about whether it is current.
  if (
    type === 'medication' &&
    values.start_date &&
    values.end_date &&
    values.end_date < values.start_date
  ) {
    values = { ...values, start_date: null };
  }
  if (type === 'medication') values = withUntimedAsNoSetTime(values);
  const parsed = definition.schema.safeParse(values);
  return parsed.success ? (parsed.data as object) : null;
}

// ---- the summary sentence -------------------------------------------------------------

/** Each type's count, as the summary says it ('12 medications'): plural keys. */
const NOUNS: Record<FhirRecordType, string> = {
  visit: key('{count} visits'),
  medication: key('{count} medications'),
  shot: key('{count} shots'),
  note: key('{count} notes'),
  condition: key('{count} conditions'),
  allergy: key('{count} allergies'),
  lab_result: key('{count} lab results'),
  insurance: key('{count} insurance policies'),
  vital: key('{count} vitals entries'),
  symptom: key('{count} symptoms'),
  contact: key('{count} contacts'),
};
const DOCUMENT_NOUN = key('{count} documents');

/**
 * A list of the summary's items: English's ', ', another language's own way ('2 afecciones y
 * 1 alergia', '2 项健康状况和 1 项过敏'): a list of counts, where formatList's short lists
 * run a Chinese or Russian list together without a separator.
 */
export const summaryList = (items: readonly string[]) =>
  currentLanguage() === 'en'
    ? items.join(', ')
    : new Intl.ListFormat(currentLocale(), { type: 'conjunction', style: 'long' }).format(items);

/**
 * 'Imported 12 medications, 2 documents; skipped 30 Observations, 1 DocumentReference;
 * documents not imported: 'Scan' (its file is at an address outside the Bundle, …)'
 */
export function importSummary(
  imported: ImportedCounts,
  skipped: Record<string, number>,
  skippedDocuments: readonly SkippedDocument[] = [],
): string {
  const kept = FHIR_RECORD_TYPES.filter((type) => imported[type]).map((type) =>
    tr(NOUNS[type], { count: imported[type] ?? 0 }),
  );
  if (imported.document) kept.push(tr(DOCUMENT_NOUN, { count: imported.document }));
  // A resource type is a code, as it is; a reader's reason was written in the language in force.
  const left = Object.entries(skipped)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([type, count]) => tr('{count} {type}s', { count, type: translateMessage(type) }));
  if (kept.length === 0 && left.length === 0) return tr('The file holds no records to import.');
  const first =
    kept.length > 0 ? tr('Imported {items}', { items: summaryList(kept) }) : tr('Imported nothing');
  const reasons = skippedDocuments.map(({ title, reason }) =>
    tr("'{title}' ({reason})", { title, reason: translateMessage(reason) }),
  );
  return [
    first,
    ...(left.length > 0 ? [tr('skipped {items}', { items: summaryList(left) })] : []),
    ...(reasons.length > 0
      ? [tr('documents not imported: {items}', { items: summaryList(reasons) })]
      : []),
  ].join('; ');
}

// ---- the import ----------------------------------------------------------------------

type ReadableEntry = BundleEntry & { resource: Resource };
type FileDocument = { entry: BundleEntry; resource: DocumentReference; file: Attachment };
type RecordMapper = (
  resource: Resource,
  context: ImportContext,
  roles: (practitioner: Practitioner) => PractitionerRole | undefined,
) => MapResult;

/** One bundle's reading under way: what was read, skipped, and put aside for later. */
interface BundleReading {
  index: ReturnType<typeof indexBundle>;
  context: ImportContext;
  rolesOf: Map<Resource, PractitionerRole>;
  familyMemberId: FhirImportOptions['familyMemberId'];
  records: ImportedRecords;
  skipped: Record<string, number>;
  unread: Resource[];
  // Vital signs, gathered first: the Observations of one moment are one vitals entry.
  vitalReadings: { reading: VitalReading; resource: Resource; sourceId: string }[];
  // Documents, read once every record is: the record a document belongs to may come later.
  fileDocuments: FileDocument[];
  /** The record each resource was read as, for the documents that name it. */
  recordOf: Map<Resource, { type: FhirRecordType; source_id: string }>;
}

function skip(reading: BundleReading, resource: Resource) {
  reading.skipped[resource.resourceType] = (reading.skipped[resource.resourceType] ?? 0) + 1;
}

/** The bundle's entries that hold a resource, or the refusal of what is not a bundle. */
function bundleEntries(json: unknown): ReadableEntry[] | { refusal: string } {
  let data = json;
  if (typeof json === 'string') {
    try {
      data = JSON.parse(json);
    } catch {
      return { refusal: tr('This file is not a FHIR R4 Bundle: it is not JSON.') };
    }
  }
  const refusal = refusalOf(data);
  if (refusal) return { refusal };
  return ((data as Bundle).entry ?? []).filter((entry): entry is ReadableEntry =>
    isObject(entry?.resource),
  );
}

/** A reading started: the bundle indexed, with what its records read from other resources. */
function startReading(entries: ReadableEntry[], options: FhirImportOptions): BundleReading {
  const index = indexBundle(entries);
  // Read as part of other records: policies' insurers, statements' prescriptions.
  const parts = new Set(
    entries.flatMap(({ resource }) => {
      if (resource.resourceType === 'Coverage') return resource.payor.map(index.find);
      if (resource.resourceType === 'MedicationStatement')
        return (resource.basedOn ?? []).map(index.find);
      return [];
    }),
  );
  const rolesOf = new Map<Resource, PractitionerRole>();
  for (const { resource } of entries) {
    if (resource.resourceType !== 'PractitionerRole') continue;
    const practitioner = index.find(resource.practitioner);
    if (practitioner && !rolesOf.has(practitioner)) rolesOf.set(practitioner, resource);
  }
  return {
    index,
    context: {
      resolve: index.resolve,
      familyMemberId: options.familyMemberId,
      isPartOfAnother: (resource) => parts.has(resource),
    },
    rolesOf,
    familyMemberId: options.familyMemberId,
    records: Object.fromEntries(
      FHIR_RECORD_TYPES.map((type) => [type, []]),
    ) as unknown as ImportedRecords,
    skipped: {},
    unread: [],
    vitalReadings: [],
    fileDocuments: [],
    recordOf: new Map(),
  };
}

/** Every entry but a document's frame, each read on its own. */
function readEntries(reading: BundleReading, entries: ReadableEntry[]) {
  for (const entry of entries) {
    const { resource } = entry;
    if (FRAME_TYPES.has(resource.resourceType)) {
      // A document's author and custodian are part of its frame, not records.
      if (resource.resourceType === 'Composition') {
        for (const frame of [...(resource.author ?? []), resource.custodian]) {
          reading.index.resolve(frame);
        }
      }
      continue;
    }
    try {
      readEntry(reading, entry);
    } catch {
      // A resource of a shape R4 does not allow (a DSTU2 Observation's single category, say)
      // is skipped like one of a type Kin does not keep; the rest of the file still reads.
      skip(reading, resource);
    }
  }
}

/** One resource: a document's file or a vital sign put aside, or read as its records. */
function readEntry(reading: BundleReading, entry: ReadableEntry) {
  const { resource } = entry;
  const file =
    resource.resourceType === 'DocumentReference' ? fileAttachmentOf(resource) : undefined;
  if (file) {
    reading.fileDocuments.push({ entry, resource: resource as DocumentReference, file });
    return;
  }
  const vital = readVitalObservation(resource);
  // A BMI is derived here from the weight and height it came from: taken, not kept.
  if (vital === 'derived') return;
  if (vital) {
    reading.vitalReadings.push({
      reading: vital,
      resource,
      sourceId: sourceIdOf(entry, resource),
    });
    return;
  }
  const map = resourceRecords[resource.resourceType] as RecordMapper | undefined;
  if (!map) {
    reading.unread.push(resource);
    return;
  }
  const result = map(resource, reading.context, (practitioner) => {
    const role = reading.rolesOf.get(practitioner);
    if (role) reading.index.used.add(role);
    return role;
  });
  if (result === IGNORE) return;
  const kept = result === SKIP ? [] : keptRecords(result, entry, reading.familyMemberId);
  if (kept.length === 0) skip(reading, resource);
  if (kept[0]) {
    reading.recordOf.set(resource, { type: kept[0].type, source_id: kept[0].record.source_id });
  }
  for (const { type, record } of kept) {
    (reading.records[type] as ImportedRecord<object>[]).push(record);
  }
}

/** The records a resource was mapped to whose values pass their type's rules. */
function keptRecords(
  result: Exclude<MapResult, typeof IGNORE | typeof SKIP>,
  entry: ReadableEntry,
  familyMemberId: FhirImportOptions['familyMemberId'],
) {
  const { resource } = entry;
  return result.flatMap((mapped) => {
    const values = checkedValues(mapped, familyMemberId);
    const base = sourceIdOf(entry, resource);
    const source_id = mapped.part ? `${base}#${mapped.part}` : base;
    const record_id = mapped.part ? undefined : resource.id;
    return values ? [{ type: mapped.type, record: { source_id, record_id, values } }] : [];
  });
}

/** The vital signs put aside, one vitals entry per moment. */
function readVitals(reading: BundleReading) {
  for (const group of groupVitalReadings(reading.vitalReadings)) {
    const values = checkedValues({ type: 'vital', values: group.values }, reading.familyMemberId);
    if (!values) {
      for (const { resource } of group.members) skip(reading, resource);
      continue;
    }
    // The same Observations make the same source on every import of the file.
    const ids = group.members.map((member) => member.sourceId).sort();
    const source_id = `vitals:${createHash('sha256').update(ids.join('\n')).digest('hex')}`;
    reading.records.vital.push({
      source_id,
      values: values as ImportedRecords['vital'][number]['values'],
    });
    for (const { resource } of group.members) {
      reading.recordOf.set(resource, { type: 'vital', source_id });
    }
  }
}

/** The documents put aside, each attached to the records it names that were read. */
function readDocuments(reading: BundleReading) {
  const { index, recordOf } = reading;
  const documents: ImportedDocument[] = [];
  // One document per file: DocumentReferences naming the same bytes (one Binary, or the same
  // data written out in each) make one, read and prepared once (decision 0049).
  const byFile = new Map<string, ImportedDocument>();
  /** The sources of the records each document is attached to, to attach it to each once. */
  const attached = new Map<ImportedDocument, Set<string>>();
  const skippedDocuments: SkippedDocument[] = [];
  for (const { entry, resource, file } of reading.fileDocuments) {
    const read = readFileDocument(resource, file, index.resolve);
    if ('skipped' in read) {
      skip(reading, resource);
      skippedDocuments.push({
        ...read.skipped,
        title: fitText(read.skipped.title, 200) ?? 'Document',
      });
      continue;
    }
    const title = fitText(read.title, 200) ?? 'Document';
    const related = (resource.context?.related ?? [])
      .map((related) => index.find(related))
      .flatMap((found) => (found ? (recordOf.get(found) ?? []) : []));
    const sourceId = sourceIdOf(entry, resource);
    const same = byFile.get(read.data);
    const document = same ?? {
      source_ids: [],
      document_ids: [],
      title,
      document_type: read.document_type,
      document_date: read.document_date,
      file_name: fitText(read.file_name, 255) ?? title,
      data: read.data,
      size_bytes: Buffer.byteLength(read.data, 'base64'),
      records: [],
    };
    document.source_ids.push(sourceId);
    if (resource.id) document.document_ids.push(resource.id);
    if (!same) {
      byFile.set(read.data, document);
      attached.set(document, new Set());
      documents.push(document);
    }
    // Each record once: several Observations of one vitals entry are one record.
    const sources = attached.get(document)!;
    for (const record of related) {
      if (sources.has(record.source_id)) continue;
      sources.add(record.source_id);
      document.records.push(record);
    }
  }
  return { documents, skippedDocuments };
}

/**
 * Reads a FHIR R4 Bundle (parsed JSON, or its text) into record values per type, or
 * refuses it with a message for the user.
 */
export function importFhirBundle(json: unknown, options: FhirImportOptions): FhirImportResult {
  const entries = bundleEntries(json);
  if ('refusal' in entries) return refuse(entries.refusal);
  const reading = startReading(entries, options);
  readEntries(reading, entries);
  readVitals(reading);
  const { documents, skippedDocuments } = readDocuments(reading);
  const { records, skipped, index } = reading;
  // Resources of other types are skipped, unless a record read what it needed from them.
  for (const resource of reading.unread) if (!index.used.has(resource)) skip(reading, resource);

  const imported = Object.fromEntries(
    FHIR_RECORD_TYPES.filter((type) => records[type].length > 0).map((type) => [
      type,
      records[type].length,
    ]),
  ) as ImportedCounts;
  if (documents.length > 0) imported.document = documents.length;
  return {
    ok: true,
    records,
    documents,
    imported,
    skipped,
    skipped_documents: skippedDocuments,
    summary: importSummary(imported, skipped, skippedDocuments),
  };
}

/** What the import route answers for a file that is not JSON at all (translated on the way out). */
export const NOT_JSON = key('The file is not a FHIR R4 Bundle (it is not JSON)');

/** A file's bytes read as a FHIR R4 Bundle (importFhirBundle), or refused. */
export function readFhirBytes(bytes: Uint8Array, options: FhirImportOptions): FhirImportResult {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return refuse(NOT_JSON);
  }
  return importFhirBundle(json, options);
}
