/**
 * The records documents are attached to (CONTRACT §6 'Documents after upload'; migration
 * 0040, decision 0044): one row of `document_records` per document and record, so a
 * document is one row however many records it is attached to. A document is attached only
 * to records of its own person (the account holder's own documents also to the account's
 * contacts); that is checked as an attachment is written, and read back the same way, so an
 * attachment whose record has gone or moved to another person is never shown. What names a
 * record (its title and the date it is known by) comes from its type's definition.
 */
import { sql, type Kysely } from 'kysely';
import {
  DOCUMENT_OTHER_PERSON_MESSAGE,
  DOCUMENT_RECORD_MESSAGE,
  type DocumentAttachment,
} from '../../shared/documents';
import type { DocumentRecord } from '../../shared/document-upload';
import { recordDefinitions } from '../../shared/records';
import { searchDateFieldOf, type RecordDefinition } from '../../shared/records/definition';
import { deleteOwned, ownedRow, ownedRows } from '../access/scope';
import type { DB } from '../db/schema';
import { badRequest } from '../http/errors';
import { nowTimestamp } from '../ids';

const definitionsByPath: ReadonlyMap<string, RecordDefinition> = new Map(
  recordDefinitions.map((definition) => [definition.path, definition]),
);

/** A document's person: its owner and member (none: the owner themself). */
export interface DocumentPerson {
  owner: string;
  member: string | null;
}

interface RecordRow {
  id: string;
  family_member_id: string | null;
  title: string;
  date: string | null;
}

/** A record type a person's documents may be attached to: every member-linked one, and the
 * account's contacts for the account holder's own, read by the account holder only. */
const attachableType = (
  definition: RecordDefinition,
  person: DocumentPerson,
  readsContacts: boolean,
) => definition.memberLinked || (person.member === null && readsContacts);

/** The rows of a record type of the owner's, with what names them. */
function recordRows(db: Kysely<DB>, definition: RecordDefinition, owner: string) {
  const dateField = searchDateFieldOf(definition);
  return ownedRows(db, definition.table, owner, 'r').select([
    'r.id',
    (definition.memberLinked
      ? sql<string | null>`${sql.ref('r.family_member_id')}`
      : sql<string | null>`cast(null as text)`
    ).as('family_member_id'),
    sql<string>`coalesce(${sql.ref(`r.${definition.titleField}`)}, '')`.as('title'),
    (dateField
      ? sql<string | null>`${sql.ref(`r.${dateField}`)}`
      : sql<string | null>`cast(null as text)`
    ).as('date'),
  ]);
}

function attachmentOf(definition: RecordDefinition, row: RecordRow): DocumentAttachment {
  return {
    record_type: definition.path,
    record_id: row.id,
    title: String(row.title),
    title_kind: definition.fields[definition.titleField]?.kind === 'datetime' ? 'datetime' : 'text',
    date: row.date === null ? null : String(row.date),
  };
}

/** Whether a record row is of the person (a contact: of no member, the account's own). */
const isOfPerson = (row: Pick<RecordRow, 'family_member_id'>, person: DocumentPerson) =>
  (row.family_member_id ?? null) === person.member;

/** Attaching documents to records and detaching them: rows of document_records. */
function documentAttachments(db: Kysely<DB>) {
  return {
    /** Attaches a document to records (checked already); one already attached stays as it is. */
    async attach(
      database: Kysely<DB>,
      owner: string,
      documentId: string,
      records: readonly DocumentRecord[],
    ) {
      if (records.length === 0) return;
      const now = nowTimestamp();
      await database
        .insertInto('document_records')
        .values(
          records.map((record) =>
            ownedRow(owner, {
              document_id: documentId,
              record_type: record.record_type,
              record_id: record.record_id,
              created_at: now,
            }),
          ),
        )
        .onConflict((conflict) =>
          conflict.columns(['document_id', 'record_type', 'record_id']).doNothing(),
        )
        .execute();
    },

    /** Detaches a document from every record but these (checked already). */
    async keepOnly(
      database: Kysely<DB>,
      owner: string,
      documentId: string,
      records: readonly DocumentRecord[],
    ) {
      const kept = new Set(records.map((record) => `${record.record_type}\n${record.record_id}`));
      const links = await ownedRows(database, 'document_records', owner)
        .select(['record_type', 'record_id'])
        .where('document_id', '=', documentId)
        .execute();
      for (const link of links) {
        if (kept.has(`${link.record_type}\n${link.record_id}`)) continue;
        await deleteOwned(database, 'document_records', owner)
          .where('document_id', '=', documentId)
          .where('record_type', '=', link.record_type)
          .where('record_id', '=', link.record_id)
          .execute();
      }
    },

    /** A record was deleted: its documents stay with their person, no longer attached to it. */
    async detachRecord(owner: string, recordType: string, recordId: string) {
      await deleteOwned(db, 'document_records', owner)
        .where('record_id', '=', recordId)
        .where('record_type', '=', recordType)
        .execute();
    },

    /**
     * A record moved to another person (its Family Member changed): the documents of its old
     * person are no longer attached to it; they stay with that person.
     */
    async detachOthersOf(
      owner: string,
      recordType: string,
      recordId: string,
      member: string | null,
    ) {
      const elsewhere = ownedRows(db, 'documents', owner)
        .select('id')
        .where((eb) =>
          member === null
            ? eb('family_member_id', 'is not', null)
            : eb.or([eb('family_member_id', 'is', null), eb('family_member_id', '!=', member)]),
        );
      await deleteOwned(db, 'document_records', owner)
        .where('record_id', '=', recordId)
        .where('record_type', '=', recordType)
        .where('document_id', 'in', elsewhere)
        .execute();
    },

    /** Every attachment of the owner's documents (an export reads them all). */
    ofOwner(owner: string) {
      return ownedRows(db, 'document_records', owner)
        .select(['document_id', 'record_type', 'record_id'])
        .orderBy('document_id')
        .orderBy('created_at')
        .orderBy('record_type')
        .orderBy('record_id')
        .execute();
    },
  };
}

export function createDocumentRecords(db: Kysely<DB>) {
  /** The person's rows of one record type among `ids`. */
  async function rowsAmong(
    definition: RecordDefinition,
    owner: string,
    ids: readonly string[],
  ): Promise<RecordRow[]> {
    if (ids.length === 0) return [];
    return (await recordRows(db, definition, owner)
      .where('r.id', 'in', [...ids])
      .execute()) as RecordRow[];
  }

  return {
    /**
     * Every record of a person a document of theirs may be attached to, by type (in the
     * catalogue's order), newest first within a type.
     */
    async ofPerson(person: DocumentPerson, readsContacts: boolean): Promise<DocumentAttachment[]> {
      const found: DocumentAttachment[] = [];
      for (const definition of recordDefinitions) {
        if (!attachableType(definition, person, readsContacts)) continue;
        const dateField = searchDateFieldOf(definition);
        let query = recordRows(db, definition, person.owner);
        if (definition.memberLinked) {
          query = query.where(
            'r.family_member_id' as never,
            person.member === null ? 'is' : '=',
            person.member as never,
          );
        }
        if (dateField) {
          query = query.orderBy(sql.ref(`r.${dateField}`), (order) => order.desc().nullsLast());
        }
        const rows = (await query.orderBy('r.id', 'desc').execute()) as RecordRow[];
        found.push(...rows.map((row) => attachmentOf(definition, row)));
      }
      return found;
    },

    /**
     * The records each of the owner's documents is attached to, named; only those of the
     * document's person (a contact only for a reader who is the owner), by type.
     */
    async named(
      owner: string,
      documents: readonly { id: string; family_member_id: string | null }[],
      readsContacts: boolean,
    ): Promise<Map<string, DocumentAttachment[]>> {
      const answer = new Map<string, DocumentAttachment[]>(
        documents.map((document) => [document.id, []]),
      );
      if (documents.length === 0) return answer;
      const links = await ownedRows(db, 'document_records', owner)
        .select(['document_id', 'record_type', 'record_id'])
        .where(
          'document_id',
          'in',
          documents.map((document) => document.id),
        )
        .execute();
      const persons = new Map(
        documents.map((document) => [
          document.id,
          { owner, member: document.family_member_id } satisfies DocumentPerson,
        ]),
      );
      for (const definition of recordDefinitions) {
        const ofType = links.filter((link) => link.record_type === definition.path);
        const rows = await rowsAmong(
          definition,
          owner,
          ofType.map((link) => link.record_id),
        );
        const byId = new Map(rows.map((row) => [row.id, row]));
        for (const link of ofType) {
          const row = byId.get(link.record_id);
          const person = persons.get(link.document_id)!;
          if (!row || !isOfPerson(row, person)) continue;
          if (!attachableType(definition, person, readsContacts)) continue;
          answer.get(link.document_id)!.push(attachmentOf(definition, row));
        }
      }
      return answer;
    },

    /**
     * The records to attach a document of this person's to, each checked: a record of the
     * person's (400 naming `field` otherwise, nothing written). Each once.
     */
    async check(
      person: DocumentPerson,
      records: readonly DocumentRecord[],
      readsContacts: boolean,
      field: string,
    ): Promise<DocumentRecord[]> {
      const unique = new Map(
        records.map((record) => [`${record.record_type}\n${record.record_id}`, record]),
      );
      for (const record of unique.values()) {
        if (!definitionsByPath.has(record.record_type)) {
          throw badRequest(DOCUMENT_RECORD_MESSAGE, field);
        }
      }
      for (const definition of recordDefinitions) {
        const wanted = [...unique.values()].filter(
          (record) => record.record_type === definition.path,
        );
        if (wanted.length === 0) continue;
        const rows = await rowsAmong(
          definition,
          person.owner,
          wanted.map((record) => record.record_id),
        );
        for (const record of wanted) {
          const row = rows.find((candidate) => candidate.id === record.record_id);
          // Someone else's record, or a contact a grantee cannot read: as one that is not there.
          if (!row || (!definition.memberLinked && !readsContacts)) {
            throw badRequest(DOCUMENT_RECORD_MESSAGE, field);
          }
          if (!isOfPerson(row, person)) throw badRequest(DOCUMENT_OTHER_PERSON_MESSAGE, field);
        }
      }
      return [...unique.values()];
    },

    ...documentAttachments(db),
  };
}

export type DocumentRecords = ReturnType<typeof createDocumentRecords>;
