/**
 * The detail screen of every record type: its fields by label, an edit button, and a
 * delete that asks first and then returns to the list. A type adds its own badges or rows.
 */
import { Pencil, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { recordDateOf, type RecordDefinition } from '../../../shared/records/definition';
import type { ImportedFrom } from '../../../shared/imports';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Loading } from '../../components/ui/feedback';
import { useWideScreen } from '../../lib/wide-screen';
import { RecordDocuments } from '../documents/record-documents';
import { usePersonInView } from '../family-members/person-in-view';
import { ImportedFromLine } from '../imports/imported-from';
import { PageHeader } from '../shell/page-header';
import { listLocation } from './list-location';
import { detailRows, RecordSummaryCard, type DetailCustomisation } from './record-detail-parts';
import { RecordListPane } from './record-list-pane';
import { RECORD_PHRASES } from './record-phrases';
import { useRecord } from './record-queries';
import { useRecordDetail, type RecordDetailProps } from './use-record-detail';

/**
 * A record's page; from 1024 px wide with its type's list beside it (record-list-pane.tsx).
 */
export function RecordDetailPage<D extends RecordDefinition>(props: {
  definition: D;
  customisation?: DetailCustomisation<D>;
}) {
  const { definition } = props;
  const { id = '' } = useParams();
  const wide = useWideScreen();
  const record = useRecord(definition, id);
  // Opened from a list filtered to one person, the way back keeps them (and the record's tab).
  const [personInView] = usePersonInView();
  const backTo = listLocation(
    definition,
    record.data as Record<string, unknown> | undefined,
    personInView,
  );
  return (
    <>
      {wide ? <RecordListPane definition={definition} currentId={id} backTo={backTo} /> : null}
      <RecordDetail
        {...props}
        id={id}
        record={record}
        backTo={backTo}
        personInView={personInView}
      />
    </>
  );
}

function RecordDetail<D extends RecordDefinition>({
  customisation = {},
  ...props
}: RecordDetailProps<D> & { customisation?: DetailCustomisation<D> }) {
  const { definition, id, record, backTo } = props;
  const { t } = useTranslation();
  const phrases = RECORD_PHRASES[definition.type];
  const detail = useRecordDetail(props);
  const { user, missing, confirming, setConfirming, remove } = detail;
  const me = user?.id;

  if (record.isPending) {
    return (
      <>
        <PageHeader title={t(phrases.details)} backTo={backTo} />
        <Loading />
      </>
    );
  }
  if (!record.data) {
    return (
      <>
        <PageHeader title={t(phrases.details)} backTo={backTo} />
        <Card className="p-6 text-center font-medium">
          {t(missing ? definition.messages.notFound : definition.messages.loadOneError)}
        </Card>
      </>
    );
  }

  const data = record.data;
  const values = data as Record<string, unknown>;
  const { shared, canChange } = detail.ownership(data);
  const rows = detailRows(definition, customisation, data, { t, ...detail });
  return (
    <>
      <PageHeader
        title={t(phrases.details)}
        backTo={backTo}
        actions={
          canChange ? (
            <Button variant="ghost" size="icon" aria-label={t(phrases.edit)} onClick={detail.edit}>
              <Pencil aria-hidden="true" />
            </Button>
          ) : null
        }
      />
      {/* From 1024 px the record's documents are a column beside its details. */}
      <div className="lg:grid lg:grid-cols-[minmax(0,1fr)_15rem] lg:items-start lg:gap-6">
        <div>
          <RecordSummaryCard
            definition={definition}
            data={data}
            badges={customisation.badges?.(data)}
            rows={rows}
          />
          <ImportedFromLine
            from={(data as { imported_from?: ImportedFrom | null }).imported_from}
          />
          {customisation.after?.(data)}
          {shared ? (
            <p className="mt-3 text-sm text-muted-foreground">
              {canChange
                ? t('Shared with you by {name}.', { name: shared.ownerName })
                : t('Shared with you by {name}: you can view this record but not change it.', {
                    name: shared.ownerName,
                  })}
            </p>
          ) : null}
        </div>
        <RecordDocuments
          recordType={definition.path}
          recordId={id}
          // The record's person, as the upload names them: none for the user's own.
          personId={
            data.user_id === me
              ? (data.family_member_id ?? '')
              : (data.family_member_id ?? data.user_id)
          }
          recordDate={recordDateOf(definition, values)}
          canChange={canChange}
        />
      </div>
      {canChange ? (
        <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:justify-end">
          <Button variant="destructive" onClick={() => setConfirming(true)}>
            <Trash2 aria-hidden="true" />
            {t(phrases.delete)}
          </Button>
        </div>
      ) : null}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t('Are you sure?')}
        description={t(phrases.deleteWarning)}
        confirmLabel={t('Delete')}
        pending={remove.isPending}
        onConfirm={detail.confirmDelete}
      />
    </>
  );
}
