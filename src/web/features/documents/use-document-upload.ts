/**
 * What the 'Upload Document' dialog does, apart from how it looks: the files chosen and how far
 * each has gone, the fields they are saved with, each file sent on its own (again when it
 * failed), or a document already uploaded attached to the record as it is.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  MAX_DOCUMENT_BYTES,
  DOCUMENT_TOO_LARGE_MESSAGE,
  DOCUMENT_EMPTY_MESSAGE,
  type DocumentType,
} from '../../../shared/documents';
import { localToday } from '../../../shared/dates';
import { tr } from '../../../shared/i18n/translate';
import { dayOfRecord } from '../../../shared/document-labels';
import { documentsApi, type DocumentUploadFields } from './documents-api';
import { errorMessage, showError, showSuccess } from '../../lib/toast';
import { useSession } from '../auth/session';
import { useAttachDocument, useDocumentsChanged, usePersonDocuments } from './document-queries';
import { personIdOf } from './document-persons';

/** The record a document is attached to, and its person ('' for the user themself). */
export interface AttachTarget {
  recordType: string;
  recordId: string;
  personId: string;
  documentType?: DocumentType;
  /** The record's date (a visit's timestamp, a lab's collected date…): the document's default. */
  recordDate?: string | null;
}

export interface Upload {
  file: File;
  sent: number;
  state: 'waiting' | 'sending' | 'done' | 'failed';
  error?: string;
}

/** What the browser can tell before sending: too big or empty (the server decides the rest). */
function refusalBeforeSending(file: File): string | undefined {
  if (file.size > MAX_DOCUMENT_BYTES) return tr(DOCUMENT_TOO_LARGE_MESSAGE);
  if (file.size === 0) return tr(DOCUMENT_EMPTY_MESSAGE);
  return undefined;
}

/** What the dialog is given: whether it is open, and what a new document is of. */
export interface UploadDocumentProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  attach?: AttachTarget;
  /** Whom a new document is of, unless attached: the person in view ('' for the user). */
  person?: string;
}

/** The person's documents not on this record yet, to attach as they are. */
function useAttachable(attach: AttachTarget | undefined, open: boolean) {
  const me = useSession().data?.user.id;
  const personDocuments = usePersonDocuments(
    personIdOf(attach?.personId ?? '', me),
    open && attach !== undefined,
  );
  return attach
    ? (personDocuments.data ?? []).filter(
        (document) =>
          !document.records.some(
            (record) =>
              record.record_type === attach.recordType && record.record_id === attach.recordId,
          ),
      )
    : [];
}

export function useDocumentUpload({ open, onOpenChange, attach, person }: UploadDocumentProps) {
  const { t } = useTranslation();
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
  const uploaded = useAttachable(attach, open);

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

  return {
    uploads,
    title,
    documentType,
    documentDate,
    personId,
    existing,
    fileError,
    titleError,
    busy,
    uploaded,
    attaching: attachExisting.isPending,
    setDocumentType,
    setDocumentDate,
    setPersonId,
    setExisting,
    /** The title as typed: from now on it is no longer each file's own name. */
    typeTitle: (typed: string) => {
      setTitle(typed);
      setTitleChanged(true);
    },
    reset,
    chooseFiles,
    submit,
    retry,
  };
}
