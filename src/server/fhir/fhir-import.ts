/**
 * Importing a FHIR R4 Bundle, in three passes over its entries (decision 0075): refuse what
 * is not one (with a sentence a user can read) and keep what its references point to
 * (bundle-survey.ts), then read each resource into record values (mappings/, one module per
 * record type), fit them to the product's field limits, check them with each type's own
 * schema, and give each a stable source_id so that importing the same file again can skip
 * what it already brought in. Documents (a DocumentReference with a file) are read with
 * their file and the record they belong to (fhir-documents.ts). Nothing is saved here: the
 * caller puts the records and documents into the person the user chose.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type {
  Attachment,
  BundleEntry,
  DocumentReference,
  Patient,
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
import {
  newSurvey,
  ReferencedResources,
  refusalOfBundle,
  refusalOfShape,
  surveyEntry,
  type BundleSurvey,
} from './bundle-survey';
import { currentLanguage, currentLocale, key, tr } from '../../shared/i18n/translate';
import { translateMessage } from '../i18n/server-language';
import { groupVitalReadings, readVitalObservation, type VitalReading } from './mappings/vitals';
import { isObject } from './fhir-elements';

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

const refuse = (message: string): FhirImportResult => ({ ok: false, message });

type Json = Record<string, unknown>;

/** Resources that belong to the document or the person, not to any record. */
const FRAME_TYPES = new Set(['Patient', 'Composition', 'CareTeam']);

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

/** No records of any type yet: where a reading gathers them. */
export const noRecords = () =>
  Object.fromEntries(FHIR_RECORD_TYPES.map((type) => [type, []])) as unknown as ImportedRecords;

/**
 * The third reading of a bundle's entries: each read as its records, in the bundle's order,
 * with the resources it points to found among those kept from the second. Records wait here
 * until they are taken (a file's reading hands them on a slice at a time) or the reading ends.
 */
class RecordReading {
  readonly context: ImportContext;
  private records = noRecords();
  /** Records read and not yet taken. */
  pending = 0;
  private readonly counts: ImportedCounts = {};
  readonly skipped: Record<string, number> = {};
  /** The places of the resources records read something from. */
  private readonly used = new Set<number>();
  /** The places of the resources read as part of another record. */
  private readonly parts = new Set<number>();
  /** Each practitioner's first role, by the practitioner's place. */
  private readonly rolesOf = new Map<number, { position: number; role: PractitionerRole }>();
  /** The places of the resources documents name as the records they belong to. */
  private readonly documentRecords = new Set<number>();
  /** Resources no mapping reads that something points to: skipped unless a record reads them. */
  private readonly unread: { position: number; type: string }[] = [];
  // Vital signs, gathered first: the Observations of one moment are one vitals entry.
  private readonly vitalReadings: {
    reading: VitalReading;
    position: number;
    type: string;
    sourceId: string;
  }[] = [];
  // Documents, read once every record is: the record a document belongs to may come later.
  private readonly fileDocuments: FileDocument[] = [];
  /** The record each resource a document names was read as, by its place. */
  private readonly recordOf = new Map<number, { type: FhirRecordType; source_id: string }>();
  /** The resource being read, and its place. */
  private current: { resource: Resource; position: number } | undefined;

  constructor(
    survey: BundleSurvey,
    private readonly referenced: ReferencedResources,
    private readonly familyMemberId: string | null,
  ) {
    const placeOf = (reference: Reference | undefined) => referenced.placeOf(reference);
    for (const part of survey.parts) {
      const place = placeOf(part);
      if (place !== undefined) this.parts.add(place);
    }
    for (const { position, role } of survey.roles) {
      const place = placeOf(role.practitioner);
      if (place !== undefined && !this.rolesOf.has(place))
        this.rolesOf.set(place, { position, role });
    }
    for (const record of survey.documentRecords) {
      const place = placeOf(record);
      if (place !== undefined) this.documentRecords.add(place);
    }
    this.context = {
      resolve: (reference) => {
        const place = placeOf(reference);
        if (place === undefined) return undefined;
        this.used.add(place);
        return referenced.at(place);
      },
      familyMemberId,
      isPartOfAnother: (resource) => {
        const place = this.placeOfResource(resource);
        return place !== undefined && this.parts.has(place);
      },
    };
  }

  private placeOfResource(resource: Resource): number | undefined {
    return resource === this.current?.resource
      ? this.current.position
      : this.referenced.placeOfResource(resource);
  }

  private skip(type: string) {
    this.skipped[type] = (this.skipped[type] ?? 0) + 1;
  }

  private add(type: FhirRecordType, record: ImportedRecord<object>) {
    (this.records[type] as ImportedRecord<object>[]).push(record);
    this.pending += 1;
    this.counts[type] = (this.counts[type] ?? 0) + 1;
  }

  /** The records read since they were last taken. */
  take(): ImportedRecords {
    const taken = this.records;
    this.records = noRecords();
    this.pending = 0;
    return taken;
  }

  /** One entry, at its place: a document's frame, or a resource read on its own. */
  read(entry: unknown, position: number) {
    if (!isObject(entry) || !isObject(entry.resource)) return;
    const readable = entry as unknown as ReadableEntry;
    const { resource } = readable;
    this.current = { resource, position };
    if (FRAME_TYPES.has(resource.resourceType)) {
      // A document's author and custodian are part of its frame, not records.
      if (resource.resourceType === 'Composition') {
        for (const frame of [...(resource.author ?? []), resource.custodian]) {
          this.context.resolve(frame);
        }
      }
      return;
    }
    try {
      this.readResource(readable, position);
    } catch {
      // A resource of a shape R4 does not allow (a DSTU2 Observation's single category, say)
      // is skipped like one of a type Kin does not keep; the rest of the file still reads.
      this.skip(resource.resourceType);
    }
  }

  /** One resource: a document's file or a vital sign put aside, or read as its records. */
  private readResource(entry: ReadableEntry, position: number) {
    const { resource } = entry;
    const file =
      resource.resourceType === 'DocumentReference' ? fileAttachmentOf(resource) : undefined;
    if (file) {
      this.fileDocuments.push({ entry, resource: resource as DocumentReference, file });
      return;
    }
    const vital = readVitalObservation(resource);
    // A BMI is derived here from the weight and height it came from: taken, not kept.
    if (vital === 'derived') return;
    if (vital) {
      const sourceId = sourceIdOf(entry, resource);
      this.vitalReadings.push({ reading: vital, position, type: resource.resourceType, sourceId });
      return;
    }
    const map = resourceRecords[resource.resourceType] as RecordMapper | undefined;
    if (!map) {
      // Skipped, unless a record reads what it needs from it (only what is pointed to can be).
      if (this.referenced.isReferenced(entry, resource)) {
        this.unread.push({ position, type: resource.resourceType });
      } else this.skip(resource.resourceType);
      return;
    }
    const result = map(resource, this.context, (practitioner) => {
      const place = this.placeOfResource(practitioner);
      const role = place === undefined ? undefined : this.rolesOf.get(place);
      if (role) this.used.add(role.position);
      return role?.role;
    });
    if (result === IGNORE) return;
    const kept = result === SKIP ? [] : keptRecords(result, entry, this.familyMemberId);
    if (kept.length === 0) this.skip(resource.resourceType);
    if (kept[0] && this.documentRecords.has(position)) {
      this.recordOf.set(position, { type: kept[0].type, source_id: kept[0].record.source_id });
    }
    for (const { type, record } of kept) this.add(type, record);
  }

  /** The vital signs put aside, one vitals entry per moment. */
  private readVitals() {
    for (const group of groupVitalReadings(this.vitalReadings)) {
      const values = checkedValues({ type: 'vital', values: group.values }, this.familyMemberId);
      if (!values) {
        for (const { type } of group.members) this.skip(type);
        continue;
      }
      // The same Observations make the same source on every import of the file.
      const ids = group.members.map((member) => member.sourceId).sort();
      const source_id = `vitals:${createHash('sha256').update(ids.join('\n')).digest('hex')}`;
      this.add('vital', { source_id, values });
      for (const { position } of group.members) {
        if (this.documentRecords.has(position)) {
          this.recordOf.set(position, { type: 'vital', source_id });
        }
      }
    }
  }

  /** The documents put aside, each attached to the records it names that were read. */
  private readDocuments() {
    const documents: ImportedDocument[] = [];
    // One document per file: DocumentReferences naming the same bytes (one Binary, or the same
    // data written out in each) make one, read and prepared once (decision 0049).
    const byFile = new Map<string, ImportedDocument>();
    /** The sources of the records each document is attached to, to attach it to each once. */
    const attached = new Map<ImportedDocument, Set<string>>();
    const skippedDocuments: SkippedDocument[] = [];
    for (const { entry, resource, file } of this.fileDocuments) {
      const read = readFileDocument(resource, file, this.context.resolve);
      if ('skipped' in read) {
        this.skip(resource.resourceType);
        skippedDocuments.push({
          ...read.skipped,
          title: fitText(read.skipped.title, 200) ?? 'Document',
        });
        continue;
      }
      const title = fitText(read.title, 200) ?? 'Document';
      const related = (resource.context?.related ?? []).flatMap((reference) => {
        const place = this.referenced.placeOf(reference);
        const record = place === undefined ? undefined : this.recordOf.get(place);
        return record ? [record] : [];
      });
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

  /** The reading ended: vitals, documents, what was skipped, and the records not yet taken. */
  finish(): ReadBundle {
    this.readVitals();
    const { documents, skippedDocuments } = this.readDocuments();
    // Resources of other types are skipped, unless a record read what it needed from them.
    for (const { position, type } of this.unread) if (!this.used.has(position)) this.skip(type);
    const imported = Object.fromEntries(
      FHIR_RECORD_TYPES.filter((type) => this.counts[type]).map((type) => [
        type,
        this.counts[type],
      ]),
    ) as ImportedCounts;
    if (documents.length > 0) imported.document = documents.length;
    return {
      ok: true,
      records: this.take(),
      documents,
      imported,
      skipped: this.skipped,
      skipped_documents: skippedDocuments,
      summary: importSummary(imported, this.skipped, skippedDocuments),
    };
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

type ReadBundle = Extract<FhirImportResult, { ok: true }>;

/** Where a reading hands its records on, a slice at a time, as it reads them. */
export type RecordSink = (type: FhirRecordType, records: ImportedRecord<object>[]) => Promise<void>;

/**
 * A FHIR R4 Bundle read in three passes over its entries, in order: surveyed (what refuses
 * it, what its references point to), the resources pointed to kept, then each entry read as
 * its records. `importFhirBundle` makes the passes over a bundle in memory; a file's reader
 * (imports/read-fhir-file.ts) streams each from the file, so that no more of a bundle than
 * one entry and what others point to is ever held, and takes the records as they are read.
 */
export class BundleImport {
  private readonly surveyed = newSurvey();
  private readonly referenced = new ReferencedResources(this.surveyed);
  private reading: RecordReading | undefined;

  constructor(private readonly options: FhirImportOptions) {}

  /** The first pass: one entry. */
  survey(entry: unknown, position: number) {
    surveyEntry(this.surveyed, entry, position);
  }

  /** After the first pass: why the bundle (its own elements, beside its entries) is refused, or null. */
  refusal(bundle: Json): string | null {
    this.surveyed.version.readBundle(bundle);
    return refusalOfBundle(bundle, this.surveyed);
  }

  /** The bundle's patient (its first Patient). */
  get patient(): Patient | undefined {
    return this.surveyed.patient;
  }

  /** Whether the second pass can find anything to keep: some entry points to another. */
  get pointsWithin(): boolean {
    return this.surveyed.referenced.size > 0;
  }

  /** The second pass: one entry, kept when something points at it. */
  keep(entry: unknown, position: number) {
    this.referenced.keep(entry, position);
  }

  private get records(): RecordReading {
    this.reading ??= new RecordReading(this.surveyed, this.referenced, this.options.familyMemberId);
    return this.reading;
  }

  /** The third pass: one entry, read as its records. */
  read(entry: unknown, position: number) {
    this.records.read(entry, position);
  }

  /** Records read and not yet taken. */
  get pending(): number {
    return this.records.pending;
  }

  /** The records read since they were last taken, to hand on. */
  take(): ImportedRecords {
    return this.records.take();
  }

  /** The reading's end: what it read (the records not yet taken), skipped and summed up. */
  finish(): ReadBundle {
    return this.records.finish();
  }
}

/**
 * Reads a FHIR R4 Bundle (parsed JSON, or its text) into record values per type, or
 * refuses it with a message for the user.
 */
export function importFhirBundle(json: unknown, options: FhirImportOptions): FhirImportResult {
  let data = json;
  if (typeof json === 'string') {
    try {
      data = JSON.parse(json);
    } catch {
      return refuse(tr('This file is not a FHIR R4 Bundle: it is not JSON.'));
    }
  }
  const shape = refusalOfShape(data);
  if (shape) return refuse(shape);
  const { entry, ...bundle } = data as Json;
  const entries = (entry as unknown[] | undefined) ?? [];
  const reading = new BundleImport(options);
  entries.forEach((item, position) => reading.survey(item, position));
  const refusal = reading.refusal(bundle);
  if (refusal) return refuse(refusal);
  entries.forEach((item, position) => reading.keep(item, position));
  entries.forEach((item, position) => reading.read(item, position));
  return reading.finish();
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
