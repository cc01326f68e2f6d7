/**
 * /documents: every document the user may see, newest first, with the member filter and a
 * filter by Document Type; 'Upload Document' in the header (and from the Add New dialog,
 * which opens this screen with `?upload`). Empty, it says whether there is no document at
 * all ('No documents yet') or none for the filters chosen ('No documents for {name}').
 */
import { FileText, Upload } from 'lucide-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DOCUMENT_TYPES } from '../../../shared/documents';
import { tr } from '../../../shared/i18n/translate';
import { EmptyState, Loading } from '../../components/ui/feedback';
import { Label, Select } from '../../components/ui/input';
import { LoadMore } from '../../components/ui/load-more';
import { FamilyFilter, useChosenPersonName } from '../family-members/member-filter';
import { useFamilyMemberOf, usePersonInView } from '../family-members/person-in-view';
import { HeaderAction, PageHeader } from '../shell/page-header';
import { useDocumentPages } from './document-queries';
import { DocumentList } from './document-list';
import { UploadDocumentDialog } from './upload-document-dialog';

/** What an empty list filtered by type, person or both says: 'No documents for Leo'. */
export function filteredEmpty(documentType: string, name: string | undefined): string {
  if (documentType) {
    const type = tr(documentType);
    return name
      ? tr('No {type} documents for {name}', { type, name })
      : tr('No {type} documents', { type });
  }
  return name ? tr('No documents for {name}', { name }) : tr('No documents');
}

export function DocumentsPage() {
  const { t } = useTranslation();
  const id = useId();
  const [member] = usePersonInView();
  const startsOn = useFamilyMemberOf(member);
  const [params, setParams] = useSearchParams();
  const documentType = params.get('type') ?? '';
  const uploading = params.has('upload');
  const setParam = (name: string, value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value === null) next.delete(name);
        else next.set(name, value);
        return next;
      },
      { replace: true },
    );
  const list = useDocumentPages({ member, document_type: documentType || undefined });
  const memberName = useChosenPersonName();
  const documents = list.data?.pages.flatMap((page) => page.documents) ?? [];

  return (
    <>
      <PageHeader
        title={t('Documents')}
        backTo="/list"
        actions={
          <HeaderAction
            label={t('Upload Document')}
            icon={Upload}
            onClick={() => setParam('upload', '')}
          />
        }
      />
      <FamilyFilter />
      <div className="mb-4 grid gap-1.5">
        <Label htmlFor={`${id}-type`}>{t('Document Type')}</Label>
        <Select
          id={`${id}-type`}
          value={documentType}
          onChange={(event) => setParam('type', event.target.value || null)}
        >
          <option value="">{t('All types')}</option>
          {DOCUMENT_TYPES.map((type) => (
            <option key={type} value={type}>
              {t(type)}
            </option>
          ))}
        </Select>
      </div>
      {list.isPending ? (
        <Loading />
      ) : documents.length === 0 ? (
        member || documentType ? (
          <EmptyState icon={FileText} title={filteredEmpty(documentType, memberName)} />
        ) : (
          <EmptyState icon={FileText} title={t('No documents yet')}>
            <p className="text-sm text-muted-foreground">
              {t('Upload a letter, a lab report or a photo of a card.')}
            </p>
          </EmptyState>
        )
      ) : (
        <>
          <DocumentList documents={documents} />
          <LoadMore query={list} />
        </>
      )}
      <UploadDocumentDialog
        // A new upload is of the person in view, once the persons a document may be of are known.
        key={startsOn ?? ''}
        person={startsOn}
        open={uploading}
        onOpenChange={(open) => setParam('upload', open ? '' : null)}
      />
    </>
  );
}

export default DocumentsPage;
