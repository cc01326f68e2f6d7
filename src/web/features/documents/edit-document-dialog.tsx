/**
 * 'Edit Document' (CONTRACT §6 'Documents after upload'): 'Title', 'Document Type',
 * 'Document Date', 'Family Member' and 'Attached To' (a native select: 'Nothing', or one of
 * that person's records, '{Record type}: {title} ({date})'), submit 'Save'. A document on
 * several records shows the first in 'Attached To' and each other one as a ticked box under
 * 'Also attached to', untick to detach. A document goes with its person: another person in
 * 'Family Member' leaves the records of the one before, as the dialog says, and offers the
 * new person's.
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { StoredDocument } from '../../../shared/documents';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { fieldErrorProps, FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { DocumentTypeField } from './document-type-field';
import { DocumentPersonField, DocumentRecordsFields } from './edit-document-fields';
import { useEditDocument } from './use-edit-document';

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
  const edit = useEditDocument(document, onDone);
  const { errors, update } = edit;

  return (
    <form className="space-y-4" onSubmit={edit.submit} noValidate>
      <FormField id={ids.title} label={t('Title')} required error={errors.title}>
        <Input
          id={ids.title}
          value={edit.title}
          maxLength={200}
          required
          onChange={(event) => edit.setTitle(event.target.value)}
          {...fieldErrorProps(ids.title, errors.title)}
        />
      </FormField>
      <DocumentTypeField
        id={`${id}-type`}
        value={edit.documentType}
        onChange={edit.setDocumentType}
      />
      <FormField id={ids.date} label={t('Document Date')} error={errors.document_date}>
        <Input
          id={ids.date}
          type="date"
          value={edit.documentDate}
          onChange={(event) => edit.setDocumentDate(event.target.value)}
          {...fieldErrorProps(ids.date, errors.document_date)}
        />
      </FormField>
      <DocumentPersonField id={ids.member} document={document} edit={edit} />
      <DocumentRecordsFields formId={id} id={ids.attached} edit={edit} />
      <Button type="submit" className="w-full" disabled={update.isPending}>
        {update.isPending ? t('Saving...') : t('Save')}
      </Button>
    </form>
  );
}
