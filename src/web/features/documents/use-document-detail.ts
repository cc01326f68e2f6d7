/**
 * What a document's page does, apart from how it looks: the document and who may change it,
 * its image zoomed or not, the edit dialog open or not, and the delete, asked first, that
 * returns to the documents.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { showError, showSuccess } from '../../lib/toast';
import { useSession } from '../auth/session';
import { useRecordOwnership } from '../household/household-queries';
import { useDeleteDocument, useDocument } from './document-queries';

export function useDocumentDetail(id: string) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const document = useDocument(id);
  const remove = useDeleteDocument();
  const ownership = useRecordOwnership();
  const user = useSession().data?.user;
  const [zoomed, setZoomed] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [editing, setEditing] = useState(false);

  const toggleZoom = () => setZoomed((value) => !value);
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

  return {
    document,
    remove,
    ownership,
    user,
    zoomed,
    toggleZoom,
    confirming,
    setConfirming,
    editing,
    setEditing,
    confirmDelete,
  };
}
