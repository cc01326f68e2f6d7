/**
 * What a record's detail screen does, apart from how it looks: it says when the record could
 * not be loaded, knows who reads it, opens the edit form, and deletes after asking, then
 * returns to the list.
 */
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../shared/api-error';
import { tr } from '../../../shared/i18n/translate';
import type { RecordDefinition } from '../../../shared/records/definition';
import { showError, showSuccess } from '../../lib/toast';
import { useSession } from '../auth/session';
import { withPerson } from '../family-members/person-in-view';
import { usePersonNames } from '../family-members/person-names';
import { useRecordOwnership } from '../household/household-queries';
import { useUnits } from '../profile-settings/profile-queries';
import { translatedToast } from './record-phrases';
import { useDeleteRecord, type useRecord } from './record-queries';

export interface RecordDetailProps<D extends RecordDefinition> {
  definition: D;
  id: string;
  record: ReturnType<typeof useRecord<D>>;
  /** Where the back arrow goes: the record's list, its person and tab kept. */
  backTo: string;
  personInView: string | undefined;
}

export function useRecordDetail<D extends RecordDefinition>({
  definition,
  id,
  record,
  backTo,
  personInView,
}: RecordDetailProps<D>) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const remove = useDeleteRecord(definition);
  const ownership = useRecordOwnership();
  const user = useSession().data?.user;
  const personNames = usePersonNames();
  const units = useUnits();
  const [confirming, setConfirming] = useState(false);
  const missing = record.error instanceof ApiError && record.error.status === 404;

  useEffect(() => {
    if (record.error && !missing) showError(tr(definition.messages.loadOneError), record.error);
  }, [record.error, missing, definition]);

  const edit = () => navigate(withPerson(`/${definition.path}/${id}/edit`, personInView));
  const confirmDelete = async () => {
    try {
      await remove.mutateAsync(id);
      setConfirming(false);
      showSuccess(translatedToast(definition.messages.deleted));
      navigate(backTo);
    } catch (error) {
      showError(t(definition.messages.deleteError), error);
    }
  };

  return {
    remove,
    ownership,
    user,
    personNames,
    units,
    confirming,
    setConfirming,
    missing,
    edit,
    confirmDelete,
  };
}
