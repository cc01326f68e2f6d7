/**
 * The fields of 'Edit Document' that name whose it is and what it is attached to: 'Family
 * Member' (with a word on the records a new person leaves), 'Attached To' and 'Also
 * attached to'.
 */
import { useTranslation } from 'react-i18next';
import { attachmentLabel } from '../../../shared/document-labels';
import type { DocumentAttachment, StoredDocument } from '../../../shared/documents';
import { recordIdentities } from '../../../shared/records/catalogue';
import { fieldErrorProps, FormField } from '../../components/ui/form-field';
import { Checkbox, Select } from '../../components/ui/input';
import { keyOf, type DocumentEdit } from './use-edit-document';

/** The records of the person, by type in the catalogue's order, for the select's groups. */
function byType(records: readonly DocumentAttachment[]) {
  return recordIdentities
    .map((identity) => ({
      identity,
      records: records.filter((record) => record.record_type === identity.path),
    }))
    .filter((group) => group.records.length > 0);
}

/** What each of these fields is given: its control's id and the form's state. */
interface EditFieldProps {
  id: string;
  edit: DocumentEdit;
}

/** 'Family Member': the account's persons, and what a change of person leaves behind. */
export function DocumentPersonField({
  id,
  document,
  edit,
}: EditFieldProps & { document: StoredDocument }) {
  const { t } = useTranslation();
  const { persons, person, errors } = edit;
  return (
    <>
      <FormField id={id} label={t('Family Member')} error={errors.family_member_id}>
        <Select
          id={id}
          value={person}
          onChange={(event) => edit.changePerson(event.target.value)}
          {...fieldErrorProps(id, errors.family_member_id)}
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
      {!edit.samePerson && document.records.length > 0 ? (
        <p className="text-sm text-muted-foreground" role="status">
          {t("It will no longer be attached to {name}'s records.", {
            name: edit.personName(edit.startPerson),
          })}
        </p>
      ) : null}
    </>
  );
}

/** 'Attached To' (one record or 'Nothing'), and each other record it stays attached to. */
export function DocumentRecordsFields({
  formId,
  id,
  edit,
}: EditFieldProps & {
  /** The form's own id, which each kept record's checkbox id starts with. */
  formId: string;
}) {
  const { t } = useTranslation();
  const { errors, kept, stillAttached } = edit;
  return (
    <>
      <FormField id={id} label={t('Attached To')} error={errors.records}>
        <Select
          id={id}
          value={edit.attached}
          onChange={(event) => edit.setAttached(event.target.value)}
          {...fieldErrorProps(id, errors.records)}
        >
          <option value="">{t('Nothing')}</option>
          {byType(edit.offered).map((group) => (
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
              id={`${formId}-kept-${keyOf(record)}`}
              label={attachmentLabel(record)}
              checked={kept.has(keyOf(record))}
              onChange={(event) => {
                const next = new Set(kept);
                if (event.target.checked) next.add(keyOf(record));
                else next.delete(keyOf(record));
                edit.setKept(next);
              }}
            />
          ))}
        </fieldset>
      ) : null}
    </>
  );
}
