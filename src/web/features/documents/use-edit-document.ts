/**
 * What 'Edit Document' does, apart from how it looks: the document's fields as they are now,
 * the records it may be attached to (its person's, and those it is attached to until they
 * are known), a change of person that leaves the records of the one before, and the save.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api-error';
import type { DocumentType, StoredDocument } from '../../../shared/documents';
import type { DocumentRecord } from '../../../shared/document-upload';
import { errorMessage, showError, showSuccess } from '../../lib/toast';
import { useSession } from '../auth/session';
import { useAttachableRecords, useUpdateDocument } from './document-queries';
import { personIdOf, personValueOf, useDocumentPersons } from './document-persons';

export const keyOf = (record: DocumentRecord) => `${record.record_type}/${record.record_id}`;
const recordOfKey = (key: string): DocumentRecord => {
  const [record_type = '', record_id = ''] = key.split('/');
  return { record_type, record_id };
};

type Field = 'title' | 'document_date' | 'family_member_id' | 'records';

export function useEditDocument(document: StoredDocument, onDone: () => void) {
  const { t } = useTranslation();
  const me = useSession().data?.user.id;
  const update = useUpdateDocument(document.id);
  // A document stays with the account that keeps it: only that account's persons.
  const persons = useDocumentPersons().filter((person) => person.ownerId === document.user_id);
  const startPerson = personValueOf(document, me);
  const [title, setTitle] = useState(document.title);
  const [documentType, setDocumentType] = useState<DocumentType>(document.document_type);
  const [documentDate, setDocumentDate] = useState(document.document_date ?? '');
  const [person, setPerson] = useState(startPerson);
  const [first, ...others] = document.records;
  const [attached, setAttached] = useState(first ? keyOf(first) : '');
  const [kept, setKept] = useState<ReadonlySet<string>>(() => new Set(others.map(keyOf)));
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const samePerson = person === startPerson;
  const choices = useAttachableRecords(personIdOf(person, me));
  // What the person has, and (until that is known) what the document is attached to now.
  const offered = [...(choices.data?.records ?? [])];
  for (const record of samePerson ? document.records : []) {
    if (!offered.some((choice) => keyOf(choice) === keyOf(record))) offered.push(record);
  }
  const stillAttached = samePerson ? others : [];
  const personName = (value: string) =>
    persons.find((candidate) => candidate.value === value)?.name ?? t('the person before');

  const changePerson = (value: string) => {
    setPerson(value);
    // The records of the person before are not the new one's.
    const back = value === startPerson;
    setAttached(back && first ? keyOf(first) : '');
    setKept(new Set(back ? others.map(keyOf) : []));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!title.trim()) {
      setErrors({ title: t('Title is required') });
      return;
    }
    setErrors({});
    const records = [
      ...(attached ? [recordOfKey(attached)] : []),
      ...stillAttached.filter((record) => kept.has(keyOf(record)) && keyOf(record) !== attached),
    ];
    try {
      await update.mutateAsync({
        title: title.trim(),
        document_type: documentType,
        document_date: documentDate || null,
        family_member_id: person || null,
        records,
      });
      showSuccess(t('Document updated'));
      onDone();
    } catch (error) {
      const field = error instanceof ApiError ? error.field?.split('.')[0] : undefined;
      if (
        error instanceof ApiError &&
        (field === 'title' ||
          field === 'document_date' ||
          field === 'family_member_id' ||
          field === 'records')
      ) {
        setErrors({ [field]: errorMessage(error) });
      } else showError(t('Could not save the document'), error);
    }
  };

  return {
    update,
    persons,
    startPerson,
    title,
    setTitle,
    documentType,
    setDocumentType,
    documentDate,
    setDocumentDate,
    person,
    changePerson,
    personName,
    samePerson,
    attached,
    setAttached,
    kept,
    setKept,
    offered,
    stillAttached,
    errors,
    submit,
  };
}

export type DocumentEdit = ReturnType<typeof useEditDocument>;
