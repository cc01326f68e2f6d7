/**
 * What the FHIR export reads: one person and their records, as plain rows the way the API
 * returns them, each type read lazily so that a long history streams instead of loading.
 */
import type { RecordType, RecordValues } from '../../shared/records/definition';
import type {
  allergyDefinition,
  contactDefinition,
  conditionDefinition,
  insuranceDefinition,
  labResultDefinition,
  medicationDefinition,
  noteDefinition,
  shotDefinition,
  symptomDefinition,
  visitDefinition,
  vitalDefinition,
} from '../../shared/records';

/** The media type of every FHIR answer (`$everything`, `$summary`). */
export const FHIR_CONTENT_TYPE = 'application/fhir+json';

/** The Content-Type header of a FHIR answer. */
export function fhirContentType(): string {
  return `${FHIR_CONTENT_TYPE}; charset=utf-8`;
}

/** Every record type, in the order a bundle lists them. */
export type FhirRecordType = RecordType;

export const FHIR_RECORD_TYPES = [
  'visit',
  'medication',
  'shot',
  'note',
  'condition',
  'allergy',
  'lab_result',
  'insurance',
  'vital',
  'symptom',
  'contact',
] as const satisfies readonly FhirRecordType[];

/** A stored record: its own fields plus identity and times, as the API returns it. */
export type StoredRow<V> = V & {
  id: string;
  family_member_id?: string | null;
  created_at: string;
  updated_at: string;
};

/** The fields of a record of each type, as its schema outputs them. */
export interface FhirValues {
  visit: RecordValues<typeof visitDefinition>;
  medication: RecordValues<typeof medicationDefinition>;
  shot: RecordValues<typeof shotDefinition>;
  note: RecordValues<typeof noteDefinition>;
  condition: RecordValues<typeof conditionDefinition>;
  allergy: RecordValues<typeof allergyDefinition>;
  lab_result: RecordValues<typeof labResultDefinition>;
  insurance: RecordValues<typeof insuranceDefinition>;
  vital: RecordValues<typeof vitalDefinition>;
  symptom: RecordValues<typeof symptomDefinition>;
  contact: RecordValues<typeof contactDefinition>;
}

export type FhirRows = { [K in FhirRecordType]: StoredRow<FhirValues[K]> };

/**
 * A person: the account holder (the user: id, full name, email) or one of their family
 * members (id, name, date of birth).
 */
export interface FhirPerson {
  id: string;
  name: string;
  /** `YYYY-MM-DD`, when known. */
  date_of_birth?: string | null;
  /** The account holder's email; family members have none. */
  email?: string | null;
}

/** Rows of one type, read when asked for; each call starts a fresh read. */
export type RowReader<R> = () => AsyncIterable<R> | Iterable<R>;

/**
 * One person and their records. Each type's rows are the person's own (family history
 * recorded for them included); contacts are those that care for the person (and the whole
 * family's, when the owner asks), carried as the care team. A type left out has no rows.
 */
export interface FhirSource {
  person: FhirPerson;
  rows: { [K in FhirRecordType]?: RowReader<FhirRows[K]> };
  /** The dose log of the person's medications; none when left out. */
  doses?: RowReader<DoseRow>;
  /** The person's documents, each with its file; none when left out. */
  documents?: RowReader<DocumentWithFile>;
}

/** A document as a DocumentReference carries it, its file read when its turn comes. */
export interface DocumentWithFile {
  id: string;
  title: string;
  document_type: string;
  document_date: string | null;
  file_name: string;
  mime_type: string;
  size_bytes: number;
  created_at: string;
  /** The ids of the records it is attached to (none, one or several). */
  record_ids: readonly string[];
  file: () => AsyncIterable<Uint8Array>;
  /** The copy a browser shows (a HEIC photo's JPEG), when the original is not one. */
  display?: { size_bytes: number; file: () => AsyncIterable<Uint8Array> };
}

/** A dose marked taken or skipped, as the dose log keeps it. */
export interface DoseRow {
  id: string;
  medication_id: string;
  /** `YYYY-MM-DD`, the day the dose was due. */
  day: string;
  /** Morning, Noon, Evening, Night, or As Needed. */
  slot: string;
  status: 'taken' | 'skipped';
  /** When it was marked, a UTC timestamp. */
  marked_at: string;
}

/** The present, given rather than read from a clock, so that an export is reproducible. */
export interface FhirClock {
  /** The moment of the export, a UTC ISO timestamp: visits from now on are upcoming. */
  now: string;
  /** The calendar date of the export, `YYYY-MM-DD`: medications and shots split at it. */
  today: string;
}

/** Every row of one type of a source, in the order the source gives them. */
export async function* readRows<K extends FhirRecordType>(
  source: FhirSource,
  type: K,
): AsyncGenerator<FhirRows[K]> {
  const reader = source.rows[type] as RowReader<FhirRows[K]> | undefined;
  if (reader) yield* reader();
}
