/**
 * The export of a user's whole data: every family member, record, dose and document of the
 * user, as stored, without what belongs to this server only (the account's id, who last
 * changed a record). A document's file goes beside the JSON (export-archive.ts).
 */
import type { Kysely } from 'kysely';
import {
  EXPORTED_ACCOUNT_HOLDER,
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type DataExport,
  type ExportedDocument,
  type ExportedRow,
} from '../../shared/data-export';
import type { DoseMark } from '../../shared/doses';
import { recordDefinitions } from '../../shared/records';
import type { RecordDefinition, RecordTable } from '../../shared/records/definition';
import { ownedRows } from '../access/scope';
import type { DB } from '../db/schema';
import { createDocumentRecords } from '../documents/document-records';
import { personsOfContacts } from '../records/record-persons';
import { recordRows } from '../records/record-rows';
import { recordKey } from './import-rows';

function stripOwner(row: Record<string, unknown>): ExportedRow {
  const { user_id: _owner, ...rest } = row;
  return rest as ExportedRow;
}

export async function exportUserData(db: Kysely<DB>, userId: string): Promise<DataExport> {
  const profile = await ownedRows(db, 'user', userId)
    .select(['name', 'email'])
    .executeTakeFirstOrThrow();
  const members = await ownedRows(db, 'family_members', userId)
    .select(['id', 'name', 'date_of_birth', 'sex', 'color', 'created_at', 'updated_at'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const records = {} as Record<RecordTable, ExportedRow[]>;
  for (const definition of recordDefinitions) {
    const rows = recordRows(definition as RecordDefinition);
    const stored = await ownedRows(db, definition.table, userId)
      .selectAll()
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    records[definition.table] = stored.map((row) => {
      // Who last changed a record is an account id of this server: not part of the data.
      const {
        family_member_name: _name,
        family_member_color: _color,
        changed_by: _changedBy,
        ...record
      } = rows.fromRow(row);
      return stripOwner(record);
    });
  }
  // Each contact with the persons it cares for, the account holder by the file's own name.
  const persons = await personsOfContacts(db, userId, 'all');
  for (const contact of records.contacts) {
    contact.person_ids = (persons.get(contact.id) ?? []).map((id) =>
      id === userId ? EXPORTED_ACCOUNT_HOLDER : id,
    );
  }
  const doseLog = (await ownedRows(db, 'dose_log', userId)
    .select(['id', 'medication_id', 'day', 'slot', 'status', 'marked_at'])
    .orderBy('day')
    .orderBy('id')
    .execute()) as DoseMark[];
  // Each document with its person and its records; its file goes beside the JSON (an archive).
  const documents = await ownedRows(db, 'documents', userId)
    .select(['id', 'family_member_id', 'title', 'document_type', 'document_date', 'file_name'])
    .select(['mime_type', 'size_bytes', 'sha256'])
    .select(['created_at', 'updated_at'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const attached = await documentRecordsOf(db, userId, records, documents);
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exported_at: new Date().toISOString(),
    profile: { full_name: profile.name, email: profile.email },
    family_members: members as ExportedRow[],
    records,
    dose_log: doseLog,
    // Its type and kind are the ones an upload was checked for.
    documents: documents.map((row) => {
      const ofDocument = attached.get(row.id) ?? [];
      return {
        ...row,
        size_bytes: Number(row.size_bytes),
        record_type: ofDocument[0]?.record_type ?? null,
        record_id: ofDocument[0]?.record_id ?? null,
        records: ofDocument,
      } as ExportedDocument;
    }),
  };
}

/**
 * The records each document is attached to, those the file holds of the document's own
 * person only (an attachment to a record since removed, or moved to someone else, would
 * not import).
 */
async function documentRecordsOf(
  db: Kysely<DB>,
  userId: string,
  records: Record<RecordTable, ExportedRow[]>,
  documents: readonly { id: string; family_member_id: string | null }[],
): Promise<Map<string, { record_type: string; record_id: string }[]>> {
  const personOfRecord = new Map<string, string | null>();
  for (const definition of recordDefinitions) {
    for (const row of records[definition.table]) {
      const member = (row.family_member_id as string | null | undefined) ?? null;
      personOfRecord.set(recordKey(definition.path, row.id), member);
    }
  }
  const personOfDocument = new Map(documents.map((row) => [row.id, row.family_member_id]));
  const attached = new Map<string, { record_type: string; record_id: string }[]>();
  for (const link of await createDocumentRecords(db).ofOwner(userId)) {
    const person = personOfRecord.get(recordKey(link.record_type, link.record_id));
    if (person === undefined || person !== personOfDocument.get(link.document_id)) continue;
    const list = attached.get(link.document_id) ?? [];
    list.push({ record_type: link.record_type, record_id: link.record_id });
    attached.set(link.document_id, list);
  }
  return attached;
}
