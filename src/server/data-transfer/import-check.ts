/**
 * The first step of importing an export file: every row checked with the API's own schemas,
 * each record kept with its member, before anything is read from the account. A refusal
 * names the row and the field.
 */
import { EXPORTED_ACCOUNT_HOLDER, type ImportFile } from '../../shared/data-export';
import { familyMemberSchema } from '../../shared/family-members';
import { recordDefinitions } from '../../shared/records';
import type { RecordDefinition } from '../../shared/records/definition';
import { withUntimedAsNoSetTime } from '../../shared/records/medications';
import { badRequest } from '../http/errors';
import { firstIssue } from '../http/validation';
import { recordRows } from '../records/record-rows';
import { checkDocuments, type CheckedDocument } from './import-documents';
import { nextTurn } from './import-plan';
import { recordKey } from './import-rows';
import { tr } from '../../shared/i18n/translate';

/** Rows checked between two turns of the event loop. */
const CHECK_SLICE = 500;

function refuse(
  where: string,
  error: { issues: Parameters<typeof firstIssue>[0]['issues'] },
): never {
  const issue = firstIssue(error);
  throw badRequest(tr('{where}: {message}', { where, message: issue.message }), issue.field);
}

/** A record of the file, checked by its type's schema. */
export interface CheckedRecord {
  fileId: string;
  fileMemberId: string | null;
  values: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

export interface CheckedFile {
  members: {
    fileId: string;
    values: Record<string, unknown>;
    created_at: string;
    updated_at: string;
  }[];
  records: { definition: RecordDefinition; items: CheckedRecord[] }[];
  doses: ImportFile['dose_log'];
  documents: CheckedDocument[];
}

/**
 * Every row of the file checked with the API's own schemas, a slice at a time: a refusal
 * names the row and the field, before anything is read from the account.
 */
export async function checkFile(file: ImportFile): Promise<CheckedFile> {
  const memberIds = new Set<string>();
  const members = file.family_members.map((member, index) => {
    const parsed = familyMemberSchema.safeParse(member);
    if (!parsed.success) {
      refuse(tr('Family member {number}', { number: index + 1 }), parsed.error);
    }
    if (memberIds.has(member.id))
      throw badRequest(tr('Family member {number}: the id appears twice', { number: index + 1 }));
    memberIds.add(member.id);
    return {
      fileId: member.id,
      values: parsed.data as Record<string, unknown>,
      created_at: member.created_at,
      updated_at: member.updated_at,
    };
  });
  const records: CheckedFile['records'] = [];
  const medicationIds = new Set<string>();
  /** Each record of the file, by its type's path and its id: its member (for documents). */
  const recordMembers = new Map<string, string | null>();
  for (const definition of recordDefinitions as readonly RecordDefinition[]) {
    const items: CheckedRecord[] = [];
    const { personsField } = recordRows(definition);
    for (const [index, item] of (file.records[definition.table] ?? []).entries()) {
      if (index % CHECK_SLICE === CHECK_SLICE - 1) await nextTurn();
      // A file written before 'No set time' existed says nothing of it.
      const parsed = definition.schema.safeParse(
        definition.type === 'medication' ? withUntimedAsNoSetTime(item) : item,
      );
      if (!parsed.success) {
        refuse(
          tr('{noun} {number}', { noun: tr(definition.noun), number: index + 1 }),
          parsed.error,
        );
      }
      const values = parsed.data as Record<string, unknown>;
      const memberId = definition.memberLinked ? values.family_member_id : null;
      if (typeof memberId === 'string' && !memberIds.has(memberId)) {
        throw badRequest(
          tr('{noun} {number}: its family member is not in the file', {
            noun: tr(definition.noun),
            number: index + 1,
          }),
          'family_member_id',
        );
      }
      if (personsField) {
        // The persons a contact cares for: members of the file, or the account holder.
        for (const personId of values[personsField] as string[]) {
          if (!memberIds.has(personId) && personId !== EXPORTED_ACCOUNT_HOLDER) {
            throw badRequest(
              tr('{noun} {number}: {field} names a person who is not in the file', {
                noun: tr(definition.noun),
                number: index + 1,
                field: tr(definition.fields[personsField]?.label ?? ''),
              }),
              personsField,
            );
          }
        }
      }
      if (definition.table === 'medications') medicationIds.add(item.id);
      recordMembers.set(
        recordKey(definition.path, item.id),
        typeof memberId === 'string' ? memberId : null,
      );
      items.push({
        fileId: item.id,
        fileMemberId: typeof memberId === 'string' ? memberId : null,
        values,
        created_at: item.created_at,
        updated_at: item.updated_at,
      });
    }
    records.push({ definition, items });
  }
  file.dose_log.forEach((dose, index) => {
    if (!medicationIds.has(dose.medication_id)) {
      throw badRequest(
        tr('Dose {number}: its medication is not in the file', { number: index + 1 }),
        'medication_id',
      );
    }
  });
  const documents = checkDocuments(file, memberIds, recordMembers);
  return { members, records, doses: file.dose_log, documents };
}
