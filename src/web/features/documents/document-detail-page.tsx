/**
 * /documents/{id}: the document itself (an image full width, which a tap zooms; a PDF in the
 * browser's own viewer), what it is and the records it is attached to, 'Download', 'Edit
 * Document' and 'Delete Document' (asked first). From 1024 px wide the document is large on
 * the left and what it is, its text and the buttons that change it are beside it.
 */
import { Download, Pencil, Trash2, ZoomIn, ZoomOut } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../../shared/api-error';
import { formatDate, formatNumber, LONG_DATE_FORMAT } from '../../../shared/dates';
import { attachmentLabel } from '../../../shared/document-labels';
import { DOCUMENT_NOT_FOUND_MESSAGE } from '../../../shared/documents';
import { tr } from '../../../shared/i18n/translate';
import { buttonVariants, Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Loading } from '../../components/ui/feedback';
import { cn } from '../../lib/cn';
import { showError, showSuccess } from '../../lib/toast';
import { useSession } from '../auth/session';
import { useRecordOwnership } from '../household/household-queries';
import { PageHeader } from '../shell/page-header';
import { formatBytes } from './document-list';
import { useDeleteDocument, useDocument, useDocumentText } from './document-queries';
import { EditDocumentDialog } from './edit-document-dialog';
import { ImportedFromLine } from '../imports/imported-from';

export function DocumentDetailPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const document = useDocument(id);
  const remove = useDeleteDocument();
  const ownership = useRecordOwnership();
  const user = useSession().data?.user;
  const [zoomed, setZoomed] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [editing, setEditing] = useState(false);

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
  const { canChange } = ownership(data);
  const image = data.mime_type.startsWith('image/');
  const person =
    data.person_name ?? (data.user_id === user?.id ? t('{name} (you)', { name: user.name }) : null);
  const rows = [
    { label: t('Document Type'), value: t(data.document_type) },
    {
      label: t('Document Date'),
      value: data.document_date ? formatDate(data.document_date, LONG_DATE_FORMAT) : null,
    },
    { label: t('Family Member'), value: person },
    { label: t('File'), value: `${data.file_name} · ${formatBytes(data.size_bytes)}` },
    {
      label: t('Attached to'),
      value: data.records.length ? (
        <ul className="space-y-1">
          {data.records.map((record) => (
            <li key={`${record.record_type}/${record.record_id}`}>
              <Link
                className="-my-1 inline-flex min-h-9 items-center text-primary underline-offset-4 hover:underline"
                to={`/${record.record_type}/${record.record_id}`}
              >
                {attachmentLabel(record)}
              </Link>
            </li>
          ))}
        </ul>
      ) : null,
    },
  ].filter((row) => row.value);

  const confirmDelete = async () => {
    try {
      await remove.mutateAsync(id);
      setConfirming(false);
      showSuccess(t('Document deleted'));
      navigate('/documents');
    } catch (error) {
      showError(t('Could not delete the document'), error);
    }
  };

  return (
    <>
      <PageHeader title={data.title} subtitle={t(data.document_type)} backTo="/documents" />
      {/* From 1024 px the document and what it is stand side by side, in a wider column. */}
      <div
        data-wide
        className="lg:grid lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] lg:items-start lg:gap-8"
      >
        <div>
          {image ? (
            <div className="-mx-4 overflow-auto bg-surface-muted sm:mx-0 sm:rounded-2xl">
              <img
                src={data.view_url}
                alt={data.title}
                className={cn(
                  'block max-w-none',
                  // At a desk the whole page fits the screen's height until it is zoomed.
                  zoomed ? 'w-[250%]' : 'w-full lg:max-h-[calc(100dvh-14rem)] lg:object-contain',
                )}
                onClick={() => setZoomed((value) => !value)}
              />
            </div>
          ) : (
            <iframe
              src={data.view_url}
              title={data.title}
              className="h-[70dvh] w-full rounded-2xl border border-border bg-white lg:h-[calc(100dvh-14rem)]"
            />
          )}
          <div className="mt-3 flex flex-wrap gap-2">
            {image ? (
              <Button variant="outline" onClick={() => setZoomed((value) => !value)}>
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
          <Card className="mt-4 p-5 lg:mt-0">
            <dl className="divide-y divide-border">
              {rows.map((row) => (
                <div key={row.label} className="grid gap-1 py-3 sm:grid-cols-[10rem_1fr] sm:gap-4">
                  <dt className="text-sm font-medium text-muted-foreground">{row.label}</dt>
                  <dd className="min-w-0 wrap-anywhere">{row.value}</dd>
                </div>
              ))}
            </dl>
          </Card>
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
        pending={remove.isPending}
        onConfirm={confirmDelete}
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
            {t('The text of this document could not be read.')}
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
