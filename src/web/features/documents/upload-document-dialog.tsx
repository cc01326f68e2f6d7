/**
 * The 'Upload Document' dialog (CONTRACT §5 'Documents'): 'File' (several at once; on a
 * phone the image types offer the camera), 'Title' (the file's name until changed),
 * 'Document Type', 'Document Date', 'Family Member', and 'Upload'. Each file goes on its own,
 * with a progress bar; one that fails says why and can be sent again. Tied to a record
 * ('Attach Document'), the person is the record's, the date the record's day, and the
 * person's documents already uploaded are offered first ('Existing Document', §6): one of
 * them is attached as it is, no second copy made.
 */
import { RotateCcw } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DOCUMENT_ACCEPT,
  MAX_DOCUMENT_BYTES,
  DOCUMENT_TOO_LARGE_MESSAGE,
  DOCUMENT_EMPTY_MESSAGE,
  type DocumentType,
} from '../../../shared/documents';
import { localToday } from '../../../shared/dates';
import { key, tr } from '../../../shared/i18n/translate';
import { dayOfRecord, documentChoiceLabel } from '../../../shared/document-labels';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { FormField } from '../../components/ui/form-field';
import { Input, Select } from '../../components/ui/input';
import { documentsApi, type DocumentUploadFields } from './documents-api';
import { errorMessage, showError, showSuccess } from '../../lib/toast';
import { useSession } from '../auth/session';
import { useAttachDocument, useDocumentsChanged, usePersonDocuments } from './document-queries';
import { personIdOf, useDocumentPersons } from './document-persons';
import { DocumentTypeField } from './document-type-field';

/** The record a document is attached to, and its person ('' for the user themself). */
export interface AttachTarget {
  recordType: string;
  recordId: string;
  personId: string;
  documentType?: DocumentType;
  /** The record's date (a visit's timestamp, a lab's collected date…): the document's default. */
  recordDate?: string | null;
}

interface Upload {
  file: File;
  sent: number;
  state: 'waiting' | 'sending' | 'done' | 'failed';
  error?: string;
}

/** What is kept of a file (the server's cleaning, decision 0051), said before it is chosen. */
export const FILE_KEPT_HINT = key(
  'Photos and PDFs are kept without their location, camera and author details. A signed or password-protected PDF is kept exactly as it is.',
);

/** What the browser can tell before sending: too big or empty (the server decides the rest). */
function refusalBeforeSending(file: File): string | undefined {
  if (file.size > MAX_DOCUMENT_BYTES) return tr(DOCUMENT_TOO_LARGE_MESSAGE);
  if (file.size === 0) return tr(DOCUMENT_EMPTY_MESSAGE);
  return undefined;
}

export function UploadDocumentDialog({
  open,
  onOpenChange,
  attach,
  person,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  attach?: AttachTarget;
  /** Whom a new document is of, unless attached: the person in view ('' for the user). */
  person?: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const me = useSession().data?.user.id;
  const persons = useDocumentPersons();
  const changed = useDocumentsChanged();
  const attachExisting = useAttachDocument();
  // Attached from a record, a document is dated by the record's day, not today.
  const defaultDate = () => dayOfRecord(attach?.recordDate) ?? localToday();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [title, setTitle] = useState('');
  const [titleChanged, setTitleChanged] = useState(false);
  const [documentType, setDocumentType] = useState<DocumentType>(attach?.documentType ?? 'Other');
  const [documentDate, setDocumentDate] = useState(defaultDate);
  const [personId, setPersonId] = useState(attach?.personId ?? person ?? '');
  const [existing, setExisting] = useState('');
  const [fileError, setFileError] = useState<string>();
  const [titleError, setTitleError] = useState<string>();
  const busy = uploads.some((upload) => upload.state === 'sending') || attachExisting.isPending;
  // The person's documents not on this record yet, to attach as they are.
  const personDocuments = usePersonDocuments(
    personIdOf(attach?.personId ?? '', me),
    open && attach !== undefined,
  );
  const uploaded = attach
    ? (personDocuments.data ?? []).filter(
        (document) =>
          !document.records.some(
            (record) =>
              record.record_type === attach.recordType && record.record_id === attach.recordId,
          ),
      )
    : [];

  const reset = () => {
    setUploads([]);
    setTitle('');
    setTitleChanged(false);
    setDocumentType(attach?.documentType ?? 'Other');
    setDocumentDate(defaultDate());
    setPersonId(attach?.personId ?? person ?? '');
    setExisting('');
    setFileError(undefined);
    setTitleError(undefined);
  };

  const chooseFiles = (files: File[]) => {
    setUploads(files.map((file) => ({ file, sent: 0, state: 'waiting' })));
    setFileError(undefined);
    if (!titleChanged) setTitle(files[0]?.name ?? '');
  };

  const patch = (file: File, change: Partial<Upload>) =>
    setUploads((current) =>
      current.map((upload) => (upload.file === file ? { ...upload, ...change } : upload)),
    );

  /** The title each file is saved under: the one typed, or each file's own name. */
  const titleOf = (file: File, index: number, count: number) => {
    if (!titleChanged) return file.name;
    return count > 1 ? `${title.trim()} (${index + 1})` : title.trim();
  };

  const send = async (upload: Upload, index: number, count: number): Promise<boolean> => {
    const refusal = refusalBeforeSending(upload.file);
    if (refusal) {
      patch(upload.file, { state: 'failed', error: refusal });
      return false;
    }
    patch(upload.file, { state: 'sending', sent: 0, error: undefined });
    const fields: DocumentUploadFields = {
      title: titleOf(upload.file, index, count),
      document_type: documentType,
      document_date: documentDate || undefined,
      family_member_id: personId || undefined,
      file_name: upload.file.name,
      record_type: attach?.recordType,
      record_id: attach?.recordId,
    };
    try {
      await documentsApi.upload(upload.file, fields, (sent) => patch(upload.file, { sent }));
      patch(upload.file, { state: 'done', sent: upload.file.size });
      return true;
    } catch (error) {
      patch(upload.file, { state: 'failed', error: errorMessage(error) });
      return false;
    }
  };

  const finishIfAllDone = (results: boolean[]) => {
    void changed();
    if (results.every(Boolean)) {
      showSuccess(results.length > 1 ? t('Documents uploaded') : t('Document uploaded'));
      reset();
      onOpenChange(false);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (attach && existing) {
      try {
        await attachExisting.mutateAsync({
          id: existing,
          record: { record_type: attach.recordType, record_id: attach.recordId },
        });
        showSuccess(t('Document attached'));
        reset();
        onOpenChange(false);
      } catch (error) {
        showError(t('Could not attach the document'), error);
      }
      return;
    }
    if (uploads.length === 0) {
      setFileError(t('Choose a file to upload'));
      return;
    }
    if (titleChanged && !title.trim()) {
      setTitleError(t('Title is required'));
      return;
    }
    setTitleError(undefined);
    const pending = uploads.filter((upload) => upload.state !== 'done');
    const results: boolean[] = [];
    // One at a time: a phone's upload link is the bottleneck, and each bar moves in turn.
    for (const upload of pending) {
      results.push(await send(upload, uploads.indexOf(upload), uploads.length));
    }
    finishIfAllDone(results);
  };

  const retry = async (upload: Upload) => {
    const ok = await send(upload, uploads.indexOf(upload), uploads.length);
    const others = uploads
      .filter((other) => other !== upload)
      .map((other) => other.state === 'done');
    finishIfAllDone([ok, ...others]);
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next && !busy) reset();
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
        <form className="space-y-4" onSubmit={submit} noValidate>
          {uploaded.length ? (
            <FormField id={`${id}-existing`} label={t('Existing Document')}>
              <Select
                id={`${id}-existing`}
                value={existing}
                onChange={(event) => setExisting(event.target.value)}
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
              <FormField id={`${id}-file`} label={t('File')} required error={fileError}>
                <Input
                  id={`${id}-file`}
                  type="file"
                  multiple
                  accept={DOCUMENT_ACCEPT}
                  aria-describedby={`${id}-file-kept`}
                  onChange={(event) => chooseFiles([...(event.target.files ?? [])])}
                  disabled={busy}
                />
                <p id={`${id}-file-kept`} className="text-sm text-muted-foreground">
                  {t(FILE_KEPT_HINT)}
                </p>
              </FormField>
              <FormField id={`${id}-title`} label={t('Title')} required error={titleError}>
                <Input
                  id={`${id}-title`}
                  value={title}
                  maxLength={200}
                  onChange={(event) => {
                    setTitle(event.target.value);
                    setTitleChanged(true);
                  }}
                />
              </FormField>
              <DocumentTypeField
                id={`${id}-type`}
                value={documentType}
                onChange={setDocumentType}
              />
              <FormField id={`${id}-date`} label={t('Document Date')}>
                <Input
                  id={`${id}-date`}
                  type="date"
                  value={documentDate}
                  onChange={(event) => setDocumentDate(event.target.value)}
                />
              </FormField>
              <FormField id={`${id}-member`} label={t('Family Member')}>
                <Select
                  id={`${id}-member`}
                  value={personId}
                  onChange={(event) => setPersonId(event.target.value)}
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
                <ul className="space-y-3" aria-label={t('Files')}>
                  {uploads.map((upload) => (
                    <li
                      key={`${upload.file.name}-${upload.file.lastModified}`}
                      className="space-y-1"
                    >
                      <div className="flex items-center justify-between gap-2 text-sm">
                        <span className="min-w-0 truncate font-medium">{upload.file.name}</span>
                        <span className="shrink-0 text-muted-foreground">
                          {upload.state === 'done'
                            ? t('Uploaded')
                            : upload.state === 'failed'
                              ? t('Failed')
                              : upload.state === 'sending'
                                ? `${Math.round((upload.sent / Math.max(upload.file.size, 1)) * 100)}%`
                                : ''}
                        </span>
                      </div>
                      <progress
                        className="h-2 w-full accent-primary"
                        aria-label={t('{file} upload progress', { file: upload.file.name })}
                        max={Math.max(upload.file.size, 1)}
                        value={
                          upload.state === 'done'
                            ? upload.file.size
                            : upload.state === 'failed'
                              ? 0
                              : upload.sent
                        }
                      />
                      {upload.state === 'failed' ? (
                        <div className="flex items-center justify-between gap-2">
                          <p className="text-sm font-medium text-destructive" role="alert">
                            {upload.error}
                          </p>
                          <Button
                            type="button"
                            variant="outline"
                            onClick={() => void retry(upload)}
                            aria-label={t('Retry {file}', { file: upload.file.name })}
                          >
                            <RotateCcw aria-hidden="true" />
                            {t('Retry')}
                          </Button>
                        </div>
                      ) : null}
                    </li>
                  ))}
                </ul>
              ) : null}
            </>
          )}
          <Button type="submit" className="w-full" disabled={busy}>
            {existing
              ? attachExisting.isPending
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
