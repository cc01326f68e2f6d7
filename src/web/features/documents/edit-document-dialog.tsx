/**
 * 'Edit Document' (CONTRACT §6 'Documents after upload'): 'Title', 'Document Type',
 * 'Document Date', 'Family Member' and 'Attached To' (a native select: 'Nothing', or one of
 * that person's records, '{Record type}: {title} ({date})'), submit 'Save'. A document on
 * several records shows the first in 'Attached To' and each other one as a ticked box under
 * 'Also attached to', untick to detach. A document goes with its person: another person in
 * 'Family Member' leaves the records of the one before, as the dialog says, and offers the
 * new person's.
 */
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api-error';
import { attachmentLabel } from '../../../shared/document-labels';
import {
  type DocumentAttachment,
  type DocumentType,
  type StoredDocument,
} from '../../../shared/documents';
import type { DocumentRecord } from '../../../shared/document-upload';
import { recordIdentities } from '../../../shared/records/catalogue';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { fieldErrorProps, FormField } from '../../components/ui/form-field';
import { Checkbox, Input, Select } from '../../components/ui/input';
import { errorMessage, showError, showSuccess } from '../../lib/toast';
import { useSession } from '../auth/session';
import { useAttachableRecords, useUpdateDocument } from './document-queries';
import { DocumentTypeField } from './document-type-field';
import { personIdOf, personValueOf, useDocumentPersons } from './document-persons';

const keyOf = (record: DocumentRecord) => `${record.record_type}/${record.record_id}`;
const recordOfKey = (key: string): DocumentRecord => {
  const [record_type = '', record_id = ''] = key.split('/');
  return { record_type, record_id };
};

type Field = 'title' | 'document_date' | 'family_member_id' | 'records';

/** The records of the person, by type in the catalogue's order, for the select's groups. */
function byType(records: readonly DocumentAttachment[]) {
  return recordIdentities
    .map((identity) => ({
      identity,
      records: records.filter((record) => record.record_type === identity.path),
    }))
    .filter((group) => group.records.length > 0);
}

export function EditDocumentDialog({
  document,
  open,
  onOpenChange,
}: {
  document: StoredDocument;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {/* Mounted while open: each opening starts from the document as it is now. */}
      {open ? (
        <DialogContent title={t('Edit Document')}>
          <EditDocumentForm document={document} onDone={() => onOpenChange(false)} />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

function EditDocumentForm({ document, onDone }: { document: StoredDocument; onDone: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const ids = {
    title: `${id}-title`,
    date: `${id}-date`,
    member: `${id}-member`,
    attached: `${id}-attached`,
  };
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

  return (
    <form className="space-y-4" onSubmit={submit} noValidate>
      <FormField id={ids.title} label={t('Title')} required error={errors.title}>
        <Input
          id={ids.title}
          value={title}
          maxLength={200}
          required
          onChange={(event) => setTitle(event.target.value)}
          {...fieldErrorProps(ids.title, errors.title)}
        />
      </FormField>
      <DocumentTypeField id={`${id}-type`} value={documentType} onChange={setDocumentType} />
      <FormField id={ids.date} label={t('Document Date')} error={errors.document_date}>
        <Input
          id={ids.date}
          type="date"
          value={documentDate}
          onChange={(event) => setDocumentDate(event.target.value)}
          {...fieldErrorProps(ids.date, errors.document_date)}
        />
      </FormField>
      <FormField id={ids.member} label={t('Family Member')} error={errors.family_member_id}>
        <Select
          id={ids.member}
          value={person}
          onChange={(event) => changePerson(event.target.value)}
          {...fieldErrorProps(ids.member, errors.family_member_id)}
        >
          {persons.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
          {persons.some((option) => option.value === person) ? null : (
            <option value={person}>{document.person_name ?? t('The document’s person')}</option>
          )}
        </Select>
      </FormField>
      {!samePerson && document.records.length > 0 ? (
        <p className="text-sm text-muted-foreground" role="status">
          {t("It will no longer be attached to {name}'s records.", {
            name: personName(startPerson),
          })}
        </p>
      ) : null}
      <FormField id={ids.attached} label={t('Attached To')} error={errors.records}>
        <Select
          id={ids.attached}
          value={attached}
          onChange={(event) => setAttached(event.target.value)}
          {...fieldErrorProps(ids.attached, errors.records)}
        >
          <option value="">{t('Nothing')}</option>
          {byType(offered).map((group) => (
            <optgroup key={group.identity.path} label={t(group.identity.plural)}>
              {group.records.map((record) => (
                <option key={keyOf(record)} value={keyOf(record)}>
                  {attachmentLabel(record)}
                </option>
              ))}
            </optgroup>
          ))}
        </Select>
      </FormField>
      {stillAttached.length > 0 ? (
        <fieldset className="space-y-2">
          <legend className="mb-1.5 text-sm font-medium">{t('Also attached to')}</legend>
          {stillAttached.map((record) => (
            <Checkbox
              key={keyOf(record)}
              id={`${id}-kept-${keyOf(record)}`}
              label={attachmentLabel(record)}
              checked={kept.has(keyOf(record))}
              onChange={(event) => {
                const next = new Set(kept);
                if (event.target.checked) next.add(keyOf(record));
                else next.delete(keyOf(record));
                setKept(next);
              }}
            />
          ))}
        </fieldset>
      ) : null}
      <Button type="submit" className="w-full" disabled={update.isPending}>
        {update.isPending ? t('Saving...') : t('Save')}
      </Button>
    </form>
  );
}
