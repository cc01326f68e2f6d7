/**
 * A record's documents, on its detail screen (every record type's): the heading
 * 'Documents', the documents attached to it, and 'Attach Document' (the Upload Document
 * dialog, tied to the record, its person and its date, offering the person's documents
 * already uploaded). From 1024 px wide it is a column beside the record's details, its
 * documents' thumbnails large.
 */
import { Paperclip } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DocumentType } from '../../../shared/documents';
import { Button } from '../../components/ui/button';
import { useDocuments } from './document-queries';
import { DocumentList } from './document-list';
import { UploadDocumentDialog } from './upload-document-dialog';

/** The type a paper attached to a record of this kind most likely is. */
const LIKELY_TYPE: Readonly<Record<string, DocumentType>> = {
  insurance: 'Insurance Card',
  medications: 'Prescription',
  visits: 'Letter',
};

export function RecordDocuments({
  recordType,
  recordId,
  personId,
  recordDate,
  canChange,
}: {
  recordType: string;
  recordId: string;
  /** The record's person: '' for the user themself, else a member's or shared person's id. */
  personId: string;
  /** The date the record is known by (a visit's timestamp, a lab's collected date…). */
  recordDate: string | null;
  canChange: boolean;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const documents = useDocuments({ record_type: recordType, record_id: recordId });
  const list = documents.data?.documents ?? [];
  return (
    <section className="mt-6 space-y-3 lg:mt-0" aria-labelledby={`documents-${recordId}`}>
      <div className="flex items-center justify-between gap-3 lg:flex-wrap">
        <h2 id={`documents-${recordId}`} className="text-lg font-semibold">
          {t('Documents')}
        </h2>
        {canChange ? (
          <Button variant="soft" onClick={() => setOpen(true)}>
            <Paperclip aria-hidden="true" />
            {t('Attach Document')}
          </Button>
        ) : null}
      </div>
      {list.length ? (
        <DocumentList documents={list} showPerson={false} stacked />
      ) : documents.isPending ? null : (
        <p className="text-sm text-muted-foreground">{t('No documents attached.')}</p>
      )}
      {canChange ? (
        <UploadDocumentDialog
          open={open}
          onOpenChange={setOpen}
          attach={{
            recordType,
            recordId,
            personId,
            recordDate,
            documentType: LIKELY_TYPE[recordType],
          }}
        />
      ) : null}
    </section>
  );
}
