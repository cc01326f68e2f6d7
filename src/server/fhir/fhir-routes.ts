/**
 * /api/fhir: one person's records as FHIR R4 (CONTRACT.md §4).
 *
 *   GET /api/fhir/Patient/{personId}/$everything   a searchset Bundle of every record, streamed
 *   GET /api/fhir/Patient/{personId}/$summary      an International Patient Summary document
 *
 * The person is the user (their own id) or one of their family members; any other id is
 * answered as a person that does not exist, never with a bundle.
 */
import { Hono, type Context } from 'hono';
import type { Kysely } from 'kysely';
import { localToday } from '../../shared/dates';
import {
  EMERGENCY_CARD_SCOPE,
  EMERGENCY_CARD_TYPES,
  isOnEmergencyCard,
  type EmergencyCardType,
} from '../../shared/emergency-card';
import { fhirQuerySchema } from '../../shared/fhir';
import { WHOLE_FAMILY_CONTACTS } from '../../shared/constants';
import { ApiError } from '../../shared/api-error';
import { DOCUMENT_NOT_FOUND_MESSAGE } from '../../shared/documents';
import type { DB } from '../db/schema';
import type { HouseholdRepository } from '../household/household-repository';
import type { AppEnv } from '../http/env';
import { validate } from '../http/validation';
import { personFileName } from '../../shared/person-file-name';
import { personDoses, personRecords, type Person } from '../persons/person-records';
import { exportablePerson } from '../access/persons';
import { patientEverythingBody } from './fhir-everything';
import {
  fhirContentType,
  FHIR_RECORD_TYPES,
  type DocumentWithFile,
  type FhirClock,
  type FhirSource,
} from './fhir-source';
import { createDocumentRecords } from '../documents/document-records';
import type { DocumentRepository } from '../documents/document-repository';
import { overdueDoses } from '../vaccines/member-plans';
import { buildPatientSummary } from './fhir-summary';

/** One person's records, each type read when the bundle reaches it. */
export function personFhirSource(
  db: Kysely<DB>,
  userId: string,
  person: Person,
  options: {
    types?: readonly string[];
    wholeFamilyContacts?: boolean;
    /**
     * The documents' rows and files: every one in the bundle when no types are chosen (a
     * full export), else those of `documentIds` (a share link's choice).
     */
    documents?: Pick<DocumentRepository, 'ofPerson' | 'readFile'>;
    documentIds?: readonly string[];
    /** Only the records of the person's emergency card on this date (no documents, no doses). */
    emergencyCardOn?: string;
  } = {},
): FhirSource {
  const { wholeFamilyContacts, documents, emergencyCardOn } = options;
  const types = emergencyCardOn === undefined ? options.types : EMERGENCY_CARD_TYPES;
  const documentIds =
    emergencyCardOn !== undefined ? [] : types ? (options.documentIds ?? []) : undefined;
  const rowsOf = (type: (typeof FHIR_RECORD_TYPES)[number]) => {
    const rows = personRecords(db, userId, person, type, { wholeFamilyContacts });
    return emergencyCardOn === undefined ? rows : onCard(rows, type, emergencyCardOn);
  };
  return {
    person: {
      id: person.id,
      name: person.name,
      date_of_birth: person.date_of_birth,
      email: person.email,
    },
    rows: Object.fromEntries(
      FHIR_RECORD_TYPES.map((type) => [
        type,
        () => (!types || types.includes(type) ? rowsOf(type) : noRecords()),
      ]),
    ) as FhirSource['rows'],
    doses: () => (emergencyCardOn === undefined ? personDoses(db, userId, person) : noRecords()),
    documents: () =>
      documents && documentIds?.length !== 0
        ? personDocuments(db, documents, userId, person, documentIds)
        : noRecords(),
  };
}

/** A person's documents, each file read when the bundle reaches it. */
async function* personDocuments(
  db: Kysely<DB>,
  documents: Pick<DocumentRepository, 'ofPerson' | 'readFile'>,
  userId: string,
  person: Person,
  ids?: readonly string[],
): AsyncGenerator<DocumentWithFile> {
  const rows = (await documents.ofPerson(userId, person.family_member_id)).filter(
    (row) => !ids || ids.includes(row.id),
  );
  // The records each is attached to: those there are, of the person's.
  const attached = await createDocumentRecords(db).named(userId, rows, true);
  for (const row of rows) {
    const displaySha256 = row.display_sha256;
    yield {
      id: row.id,
      title: row.title,
      document_type: row.document_type,
      document_date: row.document_date,
      file_name: row.file_name,
      mime_type: row.mime_type,
      size_bytes: Number(row.size_bytes),
      created_at: row.created_at,
      record_ids: (attached.get(row.id) ?? []).map((record) => record.record_id),
      file: () => documents.readFile(userId, row.sha256),
      ...(displaySha256
        ? {
            display: {
              size_bytes: Number(row.display_bytes),
              file: () => documents.readFile(userId, displaySha256),
            },
          }
        : {}),
    };
  }
}

/** The rows of a type that are on the person's emergency card on `today`. */
async function* onCard<T extends Record<string, unknown>>(
  rows: AsyncIterable<T>,
  type: string,
  today: string,
): AsyncGenerator<T> {
  for await (const row of rows) {
    if (isOnEmergencyCard(type as EmergencyCardType, row, today)) yield row;
  }
}

/** A type left out of the bundle: no rows. */
async function* noRecords(): AsyncGenerator<never> {}

export function fhirRoutes(
  db: Kysely<DB>,
  household: Pick<HouseholdRepository, 'notePersonUse'>,
  documents?: Pick<DocumentRepository, 'ofPerson' | 'readFile'>,
) {
  async function prepare(
    c: Context<AppEnv>,
    query: {
      today?: string;
      types?: readonly string[];
      documents?: readonly string[];
      contacts?: string;
      vaccines?: 'overdue';
      scope?: typeof EMERGENCY_CARD_SCOPE;
    },
  ) {
    const access = await c.var.access();
    const { ownerId, person, shared } = await exportablePerson(
      db,
      access,
      c.req.param('personId') ?? '',
    );
    // A grantee's export is a read of the person, in the owner's security activity.
    await household.notePersonUse(access, person.id, 'read');
    const clock: FhirClock = { now: new Date().toISOString(), today: query.today ?? localToday() };
    const wholeFamilyContacts = !shared && query.contacts === WHOLE_FAMILY_CONTACTS;
    // Every document chosen must be the person's: the bundle is streamed, so it is checked first.
    if (query.documents?.length) {
      const theirs = new Set(
        (await documents?.ofPerson(ownerId, person.family_member_id))?.map((row) => row.id),
      );
      if (query.documents.some((id) => !theirs.has(id))) {
        throw new ApiError(404, DOCUMENT_NOT_FOUND_MESSAGE, 'documents');
      }
    }
    // A family member's overdue doses by the owner's schedule, only when asked (a share link).
    const emergencyCardOn = query.scope === EMERGENCY_CARD_SCOPE ? clock.today : undefined;
    const overdue =
      emergencyCardOn === undefined &&
      query.vaccines === 'overdue' &&
      person.date_of_birth &&
      !person.email
        ? await overdueDoses(db, ownerId, person.id, clock.today)
        : [];
    return {
      person,
      clock,
      overdue,
      source: personFhirSource(db, ownerId, person, {
        types: query.types,
        wholeFamilyContacts,
        documents,
        documentIds: query.documents,
        emergencyCardOn,
      }),
    };
  }

  return new Hono<AppEnv>()
    .get('/Patient/:personId/$everything', validate('query', fhirQuerySchema), async (c) => {
      const { person, clock, source, overdue } = await prepare(c, c.req.valid('query'));
      return c.body(patientEverythingBody(source, clock, overdue), 200, {
        'Content-Type': fhirContentType(),
        'Content-Disposition': `attachment; filename="${personFileName('fhir', person, clock.today, 'json')}"`,
      });
    })
    .get('/Patient/:personId/$summary', validate('query', fhirQuerySchema), async (c) => {
      const {
        types: _types,
        vaccines: _vaccines,
        documents: _documents,
        scope: _scope,
        ...query
      } = c.req.valid('query');
      const { person, clock, source } = await prepare(c, query);
      const bundle = await buildPatientSummary(source, clock);
      return c.body(JSON.stringify(bundle), 200, {
        'Content-Type': fhirContentType(),
        'Content-Disposition': `attachment; filename="${personFileName('ips', person, clock.today, 'json')}"`,
      });
    });
}
