/**
 * /documents/{id}: the document itself (an image full width, which a tap zooms; a PDF in the
 * browser's own viewer), what it is and the records it is attached to, 'Download', 'Edit
 * Document' and 'Delete Document' (asked first). From 1024 px wide the document is large on
 * the left and what it is, its text and the buttons that change it are beside it.
 */
import { Download, Pencil, Trash2, ZoomIn, ZoomOut } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ApiError } from '../../../shared/api-error';
import { formatNumber } from '../../../shared/dates';
import { DOCUMENT_NOT_FOUND_MESSAGE } from '../../../shared/documents';
import { tr } from '../../../shared/i18n/translate';
import { buttonVariants, Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Loading } from '../../components/ui/feedback';
import { ImportedFromLine } from '../imports/imported-from';
import { PageHeader } from '../shell/page-header';
import { DocumentFacts, DocumentView } from './document-detail-parts';
import { useDocumentText } from './document-queries';
import { EditDocumentDialog } from './edit-document-dialog';
import { useDocumentDetail } from './use-document-detail';

export function DocumentDetailPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const detail = useDocumentDetail(id);
  const { document, user, zoomed, confirming, setConfirming, editing, setEditing } = detail;

  if (document.isPending) {
    return (
      <>
        <PageHeader title={t('Document')} backTo="/documents" />
        <Loading />
      </>
    );
  }
  if (!document.data) {
    const missing = document.error instanceof ApiError && document.error.status === 404;
    return (
      <>
        <PageHeader title={t('Document')} backTo="/documents" />
        <Card className="p-6 text-center font-medium">
          {missing ? t(DOCUMENT_NOT_FOUND_MESSAGE) : t('Could not load the document')}
        </Card>
      </>
    );
  }
  const data = document.data;
  const { canChange } = detail.ownership(data);
  const image = data.mime_type.startsWith('image/');
  const person =
    data.person_name ?? (data.user_id === user?.id ? t('{name} (you)', { name: user.name }) : null);

  return (
    <>
      <PageHeader title={data.title} subtitle={t(data.document_type)} backTo="/documents" />
      {/* From 1024 px the document and what it is stand side by side, in a wider column. */}
      <div
        data-wide
        className="lg:grid lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] lg:items-start lg:gap-8"
      >
        <div>
          <DocumentView document={data} zoomed={zoomed} onZoom={detail.toggleZoom} />
          <div className="mt-3 flex flex-wrap gap-2">
            {image ? (
              <Button variant="outline" onClick={detail.toggleZoom}>
                {zoomed ? <ZoomOut aria-hidden="true" /> : <ZoomIn aria-hidden="true" />}
                {zoomed ? t('Zoom out') : t('Zoom in')}
              </Button>
            ) : null}
            <a
              href={`${data.file_url}?download`}
              download={data.file_name}
              className={buttonVariants({ variant: 'primary' })}
            >
              <Download aria-hidden="true" />
              {t('Download')}
            </a>
            {canChange ? (
              <Button variant="outline" onClick={() => setEditing(true)}>
                <Pencil aria-hidden="true" />
                {t('Edit Document')}
              </Button>
            ) : null}
          </div>
        </div>
        <div>
          <DocumentFacts document={data} person={person} />
          <ImportedFromLine from={data.imported_from} />
          <DocumentText id={data.id} />
          {canChange ? (
            <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:justify-end">
              <Button variant="destructive" onClick={() => setConfirming(true)}>
                <Trash2 aria-hidden="true" />
                {t('Delete Document')}
              </Button>
            </div>
          ) : null}
        </div>
      </div>
      {canChange ? (
        <EditDocumentDialog document={data} open={editing} onOpenChange={setEditing} />
      ) : null}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t('Are you sure?')}
        description={t(
          'This action cannot be undone. This will permanently delete this document and its file.',
        )}
        confirmLabel={t('Delete')}
        pending={detail.remove.isPending}
        onConfirm={detail.confirmDelete}
      />
    </>
  );
}

/** What a text read from the first pages of a long document says of them (decision 0050). */
function pagesReadNote(pagesRead: number): string {
  return pagesRead === 1
    ? tr('Text read from the first page')
    : tr('Text read from the first {pages} pages', {
        count: pagesRead,
        pages: formatNumber(pagesRead),
      });
}

/**
 * The document's text as search reads it (its text layer, or OCR of a scan), to read and
 * copy; 'Reading text…' until it has been read. A long document's text is read from its
 * first pages only, and says so.
 */
function DocumentText({ id }: { id: string }) {
  const { t } = useTranslation();
  const text = useDocumentText(id);
  const status = text.data?.status;
  const pagesRead = status === 'done' ? text.data?.pagesRead : undefined;
  return (
    <section aria-labelledby="document-text-heading" className="mt-4">
      <h2 id="document-text-heading" className="mb-2 text-lg font-semibold">
        {t('Text')}
      </h2>
      <Card className="p-5">
        {pagesRead !== undefined && (
          <p className="mb-3 text-sm text-muted-foreground">{pagesReadNote(pagesRead)}</p>
        )}
        {status === 'done' ? (
          text.data?.text?.trim() ? (
            <p className="text-sm whitespace-pre-wrap select-text wrap-anywhere">
              {text.data.text}
            </p>
          ) : (
            <p className="text-sm text-muted-foreground">
              {t('No text was found in this document.')}
            </p>
          )
        ) : status === 'failed' ? (
          <p className="text-sm text-muted-foreground">
            {text.data?.reason === 'locked'
              ? t('This PDF is locked with a password, so its text cannot be read.')
              : t('The text of this document could not be read.')}
          </p>
        ) : text.isError ? (
          <p className="text-sm text-muted-foreground">
            {t("Could not load the document's text.")}
          </p>
        ) : (
          <p role="status" className="text-sm text-muted-foreground">
            {t('Reading text…')}
          </p>
        )}
      </Card>
    </section>
  );
}

export default DocumentDetailPage;
