/**
 * Puts what a FHIR import read (fhir-import.ts) into a person: every record new to them is
 * added, with the resource it came from; a record an earlier import of the same file
 * brought into the same person is skipped (contacts, the account's own, once per account).
 * A bundle is one person's, so the contacts it brings (their care team) care for that
 * person (migration 0020). All in one transaction: an import is complete or it changed
 * nothing.
 */
import type { Kysely } from 'kysely';
import type { FhirImportSummary } from '../../shared/fhir';
import { definitionsByType } from '../../shared/records';
import type { RecordDefinition } from '../../shared/records/definition';
import { ownedRow, ownedRows } from '../access/access';
import { insertAll } from '../data-transfer/data-transfer';
import type { DB } from '../db/schema';
import { newId, nowTimestamp } from '../ids';
import type { Person } from '../persons/person-records';
import { recordRows } from '../records/record-rows';
import { importSummary, type FhirImportResult } from './fhir-import';
import { FHIR_RECORD_TYPES, type FhirRecordType } from './fhir-source';

type ReadBundle = Extract<FhirImportResult, { ok: true }>;

export async function saveFhirImport(
  database: Kysely<DB>,
  userId: string,
  person: Person,
  bundle: ReadBundle,
): Promise<FhirImportSummary> {
  return database.transaction().execute(async (db) => {
    const known = new Set(
      (
        await ownedRows(db, 'fhir_import_sources', userId)
          .select(['person_id', 'source_id'])
          .where('person_id', 'in', [person.id, userId])
          .execute()
      ).map((row) => `${row.person_id} ${row.source_id}`),
    );
    const now = nowTimestamp();
    const imported: Partial<Record<FhirRecordType, number>> = {};
    const sources: Record<string, unknown>[] = [];
    const contactPersons: Record<string, unknown>[] = [];
    let alreadyImported = 0;

    for (const type of FHIR_RECORD_TYPES) {
      const definition: RecordDefinition = definitionsByType[type];
      const rows = recordRows(definition);
      const fresh: Record<string, unknown>[] = [];
      // Contacts are the account's: remembered against the account holder, whoever the file was for.
      const owner = definition.memberLinked ? person : { id: userId, family_member_id: null };
      for (const record of bundle.records[type]) {
        const key = `${owner.id} ${record.source_id}`;
        if (known.has(key)) {
          alreadyImported += 1;
          continue;
        }
        known.add(key);
        const id = newId();
        const values = record.values as Record<string, unknown>;
        if (definition.table === 'contacts') {
          contactPersons.push(
            ownedRow(userId, {
              contact_id: id,
              person_id: person.id,
              family_member_id: person.family_member_id,
            }),
          );
        }
        fresh.push(
          ownedRow(userId, {
            id,
            ...rows.toRow(values),
            ...(definition.memberLinked ? { family_member_id: person.family_member_id } : {}),
            created_at: now,
            updated_at: now,
          }),
        );
        sources.push(
          ownedRow(userId, {
            person_id: owner.id,
            family_member_id: owner.family_member_id,
            source_id: record.source_id,
            record_type: type,
            record_id: id,
            created_at: now,
          }),
        );
      }
      if (fresh.length > 0) {
        imported[type] = fresh.length;
        await insertAll(db, definition.table, fresh);
      }
    }
    await insertAll(db, 'fhir_import_sources', sources);
    await insertAll(db, 'contact_persons', contactPersons);

    const nothingNew =
      Object.keys(imported).length === 0 && Object.keys(bundle.skipped).length === 0;
    let summary =
      alreadyImported > 0 && nothingNew
        ? 'Imported nothing'
        : importSummary(imported, bundle.skipped);
    if (alreadyImported > 0) {
      summary += ` (${alreadyImported} ${alreadyImported === 1 ? 'record was' : 'records were'} already imported)`;
    }
    return {
      format: 'fhir',
      summary,
      imported,
      skipped: bundle.skipped,
      already_imported: alreadyImported,
    };
  });
}
