/**
 * The 'Upload Document' dialog (CONTRACT §5 'Documents'): 'File' (several at once; on a
 * phone the image types offer the camera), 'Title' (the file's name until changed),
 * 'Document Type', 'Document Date', 'Family Member', and 'Upload'. Each file goes on its own,
 * with a progress bar; one that fails says why and can be sent again. Tied to a record
 * ('Attach Document'), the person is the record's, the date the record's day, and the
 * person's documents already uploaded are offered first ('Existing Document', §6): one of
 * them is attached as it is, no second copy made.
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { DOCUMENT_ACCEPT } from '../../../shared/documents';
import { key } from '../../../shared/i18n/translate';
import { documentChoiceLabel } from '../../../shared/document-labels';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { FormField } from '../../components/ui/form-field';
import { Input, Select } from '../../components/ui/input';
import { useDocumentPersons } from './document-persons';
import { DocumentTypeField } from './document-type-field';
import { UploadList } from './upload-list';
import { useDocumentUpload, type UploadDocumentProps } from './use-document-upload';

/** What is kept of a file (the server's cleaning, decision 0051), said before it is chosen. */
export const FILE_KEPT_HINT = key(
  'Photos and PDFs are kept without their location, camera and author details. A signed or password-protected PDF is kept exactly as it is.',
);

export function UploadDocumentDialog(props: UploadDocumentProps) {
  const { open, onOpenChange, attach } = props;
  const { t } = useTranslation();
  const id = useId();
  const persons = useDocumentPersons();
  const upload = useDocumentUpload(props);
  const { uploads, existing, busy, uploaded } = upload;

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next && !busy) upload.reset();
        onOpenChange(next);
      }}
    >
      <DialogContent
        title={t('Upload Document')}
        description={
          uploaded.length
            ? t('A document already uploaded, or a new PDF or photo of a paper.')
            : t('A PDF or a photo of a paper.')
        }
      >
        <form className="space-y-4" onSubmit={upload.submit} noValidate>
          {uploaded.length ? (
            <FormField id={`${id}-existing`} label={t('Existing Document')}>
              <Select
                id={`${id}-existing`}
                value={existing}
                onChange={(event) => upload.setExisting(event.target.value)}
                disabled={busy}
              >
                <option value="">{t('Upload a new file')}</option>
                {uploaded.map((document) => (
                  <option key={document.id} value={document.id}>
                    {documentChoiceLabel(document)}
                  </option>
                ))}
              </Select>
            </FormField>
          ) : null}
          {existing ? null : (
            <>
              <FormField id={`${id}-file`} label={t('File')} required error={upload.fileError}>
                <Input
                  id={`${id}-file`}
                  type="file"
                  multiple
                  accept={DOCUMENT_ACCEPT}
                  aria-describedby={`${id}-file-kept`}
                  onChange={(event) => upload.chooseFiles([...(event.target.files ?? [])])}
                  disabled={busy}
                />
                <p id={`${id}-file-kept`} className="text-sm text-muted-foreground">
                  {t(FILE_KEPT_HINT)}
                </p>
              </FormField>
              <FormField id={`${id}-title`} label={t('Title')} required error={upload.titleError}>
                <Input
                  id={`${id}-title`}
                  value={upload.title}
                  maxLength={200}
                  onChange={(event) => upload.typeTitle(event.target.value)}
                />
              </FormField>
              <DocumentTypeField
                id={`${id}-type`}
                value={upload.documentType}
                onChange={upload.setDocumentType}
              />
              <FormField id={`${id}-date`} label={t('Document Date')}>
                <Input
                  id={`${id}-date`}
                  type="date"
                  value={upload.documentDate}
                  onChange={(event) => upload.setDocumentDate(event.target.value)}
                />
              </FormField>
              <FormField id={`${id}-member`} label={t('Family Member')}>
                <Select
                  id={`${id}-member`}
                  value={upload.personId}
                  onChange={(event) => upload.setPersonId(event.target.value)}
                  // Attached to a record, the document is its person's.
                  disabled={attach !== undefined}
                >
                  {persons.map((person) => (
                    <option key={person.value} value={person.value}>
                      {person.label}
                    </option>
                  ))}
                  {attach?.personId &&
                  !persons.some((person) => person.value === attach.personId) ? (
                    <option value={attach.personId}>{t("The record's person")}</option>
                  ) : null}
                </Select>
              </FormField>
              {uploads.length ? (
                <UploadList uploads={uploads} onRetry={(one) => void upload.retry(one)} />
              ) : null}
            </>
          )}
          <Button type="submit" className="w-full" disabled={busy}>
            {existing
              ? upload.attaching
                ? t('Saving...')
                : t('Attach')
              : busy
                ? t('Uploading...')
                : t('Upload')}
          </Button>
        </form>
      </DialogContent>
    </Dialog>
  );
}
