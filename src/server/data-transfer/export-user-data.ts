/**
 * The export of a user's whole data: every family member, record, dose and document of the
 * user, as stored, without what belongs to this server only (the account's id, who last
 * changed a record). A document's file goes beside the JSON (export-archive.ts).
 *
 * The JSON is written as it is read (`exportJson`): each table a page of rows at a time, in
 * the order they were made, so that an account of 200,000 records is never in memory at
 * once, as FHIR $everything is not (fhir-everything.ts). It is the same JSON the whole
 * object (`DataExport`) would make, key for key.
 */
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import {
  EXPORTED_ACCOUNT_HOLDER,
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type ExportedDocument,
  type ExportedRow,
} from '../../shared/data-export';
import { recordDefinitions } from '../../shared/records';
import type { RecordDefinition, RecordTable } from '../../shared/records/definition';
import { ownedRows } from '../access/scope';
import type { DB } from '../db/schema';
import { createDocumentRecords } from '../documents/document-records';
import { personsOfContacts } from '../records/record-persons';
import { recordRows } from '../records/record-rows';
import { recordKey } from './import-rows';

/** Rows read per query: a page of a table, never the whole of it. */
export const EXPORT_PAGE_ROWS = 2000;
/** The JSON is handed on in pieces of about this many characters. */
const CHUNK_CHARACTERS = 64 * 1024;

/** Where the last page ended: its last row's order and id. */
type After = { order: string; id: string } | null;

/**
 * The pages of rows a query reads, in (`column`, id) order: each page starts after the last
 * row of the one before (rows made in the same millisecond by their ids).
 */
async function* inPages<TB extends keyof DB, R extends { id: string }>(
  query: () => SelectQueryBuilder<DB, TB, R>,
  column: 'created_at' | 'day',
): AsyncGenerator<R[]> {
  let after: After = null;
  for (;;) {
    let page = query().orderBy(sql.ref(column)).orderBy(sql.ref('id')).limit(EXPORT_PAGE_ROWS);
    if (after) {
      const { order, id } = after;
      page = page.where(
        sql<boolean>`(${sql.ref(column)} > ${order} or (${sql.ref(column)} = ${order} and id > ${id}))`,
      );
    }
    const rows = await page.execute();
    yield rows;
    if (rows.length < EXPORT_PAGE_ROWS) return;
    const last = rows[rows.length - 1]!;
    after = { order: String((last as Record<string, unknown>)[column]), id: last.id };
  }
}

/** Every row of the pages, one after another. */
async function* rowsOf<R>(pages: AsyncIterable<R[]>): AsyncGenerator<R> {
  for await (const page of pages) yield* page;
}

/** Writes values as a JSON array, handing on a piece whenever enough is written. */
async function* jsonArray(values: AsyncIterable<unknown>): AsyncGenerator<string> {
  let buffer = '[';
  let first = true;
  for await (const value of values) {
    buffer += (first ? '' : ',') + JSON.stringify(value);
    first = false;
    if (buffer.length >= CHUNK_CHARACTERS) {
      yield buffer;
      buffer = '';
    }
  }
  yield `${buffer}]`;
}

function stripOwner(row: Record<string, unknown>): ExportedRow {
  const { user_id: _owner, ...rest } = row;
  return rest as ExportedRow;
}

/** A stored record as the file holds it: without its owner, its member's name and colour, or who changed it. */
function exportedRecord(rows: ReturnType<typeof recordRows>, row: Record<string, unknown>) {
  // Who last changed a record is an account id of this server: not part of the data.
  const {
    family_member_name: _name,
    family_member_color: _color,
    changed_by: _changedBy,
    ...record
  } = rows.fromRow(row);
  return stripOwner(record);
}

/** The owner's records of one type, a page at a time; a contact with the persons it cares for. */
async function* recordsOf(
  db: Kysely<DB>,
  userId: string,
  definition: RecordDefinition,
): AsyncGenerator<ExportedRow> {
  const rows = recordRows(definition);
  const pages = inPages(
    () =>
      ownedRows(db, definition.table, userId).selectAll() as SelectQueryBuilder<
        DB,
        RecordTable,
        Record<string, unknown> & { id: string }
      >,
    'created_at',
  );
  for await (const page of pages) {
    if (definition.table !== 'contacts') {
      for (const row of page) yield exportedRecord(rows, row);
      continue;
    }
    // Each contact with the persons it cares for, the account holder by the file's own name.
    const persons = await personsOfContacts(
      db,
      userId,
      page.map((row) => row.id),
    );
    for (const row of page) {
      const contact = exportedRecord(rows, row);
      contact.person_ids = (persons.get(row.id) ?? []).map((id) =>
        id === userId ? EXPORTED_ACCOUNT_HOLDER : id,
      );
      yield contact;
    }
  }
}

/**
 * The records each document is attached to, those of the document's own person only (an
 * attachment to a record since removed, or moved to someone else, would not import): the
 * attachments' records are looked up, not every record.
 */
async function documentRecordsOf(
  db: Kysely<DB>,
  userId: string,
): Promise<Map<string, { record_type: string; record_id: string }[]>> {
  const links = await createDocumentRecords(db).ofOwner(userId);
  /** The person of each attached record that is still there (null: the account holder). */
  const personOfRecord = new Map<string, string | null>();
  for (const definition of recordDefinitions) {
    const ids = [
      ...new Set(
        links.filter((link) => link.record_type === definition.path).map((link) => link.record_id),
      ),
    ];
    for (let start = 0; start < ids.length; start += EXPORT_PAGE_ROWS) {
      const found = (await ownedRows(db, definition.table, userId)
        .selectAll()
        .where('id', 'in', ids.slice(start, start + EXPORT_PAGE_ROWS))
        .execute()) as Record<string, unknown>[];
      for (const row of found) {
        const member = (row.family_member_id as string | null | undefined) ?? null;
        personOfRecord.set(recordKey(definition.path, row.id as string), member);
      }
    }
  }
  const documents = await ownedRows(db, 'documents', userId)
    .select(['id', 'family_member_id'])
    .execute();
  const personOfDocument = new Map(documents.map((row) => [row.id, row.family_member_id]));
  const attached = new Map<string, { record_type: string; record_id: string }[]>();
  for (const link of links) {
    const person = personOfRecord.get(recordKey(link.record_type, link.record_id));
    if (person === undefined || person !== personOfDocument.get(link.document_id)) continue;
    const list = attached.get(link.document_id) ?? [];
    list.push({ record_type: link.record_type, record_id: link.record_id });
    attached.set(link.document_id, list);
  }
  return attached;
}

/**
 * The owner's documents as stored, a page at a time, in the order they were made: what the
 * file says of each, and what names its file in an archive (its hash and type).
 */
export const documentRows = (db: Kysely<DB>, userId: string) =>
  rowsOf(
    inPages(
      () =>
        ownedRows(db, 'documents', userId)
          .select(['id', 'family_member_id', 'title', 'document_type', 'document_date'])
          .select(['file_name', 'mime_type', 'size_bytes', 'sha256'])
          .select(['created_at', 'updated_at']),
      'created_at',
    ),
  );

/** The owner's documents as the file holds them, each with its records. */
async function* exportedDocuments(
  db: Kysely<DB>,
  userId: string,
): AsyncGenerator<ExportedDocument> {
  const attached = await documentRecordsOf(db, userId);
  // Its type and kind are the ones an upload was checked for.
  for await (const row of documentRows(db, userId)) {
    const ofDocument = attached.get(row.id) ?? [];
    yield {
      ...row,
      size_bytes: Number(row.size_bytes),
      record_type: ofDocument[0]?.record_type ?? null,
      record_id: ofDocument[0]?.record_id ?? null,
      records: ofDocument,
    } as ExportedDocument;
  }
}

/** Whether the owner has a document: then the export is an archive with their files. */
export async function hasDocuments(db: Kysely<DB>, userId: string): Promise<boolean> {
  const found = await ownedRows(db, 'documents', userId).select('id').limit(1).executeTakeFirst();
  return found !== undefined;
}

/**
 * The export's JSON (a `DataExport`), written as it is read: its header, then each table's
 * rows a page at a time, then the dose log and the documents.
 */
export async function* exportJson(
  db: Kysely<DB>,
  userId: string,
  exportedAt: string,
): AsyncGenerator<string> {
  const profile = await ownedRows(db, 'user', userId)
    .select(['name', 'email'])
    .executeTakeFirstOrThrow();
  const members = await ownedRows(db, 'family_members', userId)
    .select(['id', 'name', 'date_of_birth', 'sex', 'color', 'created_at', 'updated_at'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const header = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exported_at: exportedAt,
    profile: { full_name: profile.name, email: profile.email },
    family_members: members,
  };
  yield `${JSON.stringify(header).slice(0, -1)},"records":{`;
  for (const [index, definition] of recordDefinitions.entries()) {
    yield `${index > 0 ? ',' : ''}${JSON.stringify(definition.table)}:`;
    yield* jsonArray(recordsOf(db, userId, definition));
  }
  yield '},"dose_log":';
  yield* jsonArray(
    rowsOf(
      inPages(
        () =>
          ownedRows(db, 'dose_log', userId).select([
            'id',
            'medication_id',
            'day',
            'slot',
            'status',
            'marked_at',
          ]),
        'day',
      ),
    ),
  );
  yield ',"documents":';
  yield* jsonArray(exportedDocuments(db, userId));
  yield '}';
}
