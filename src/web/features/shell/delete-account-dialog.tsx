/**
 * Deleting the account: asks first, and asks for a fresh proof that the person at the
 * keyboard owns it (the password, and with two-factor sign-in on, a code from the
 * authenticator app or a backup code), as the server does.
 */
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toasts } from '../../../shared/messages';
import { profileApi } from '../../lib/api';
import { showSuccess } from '../../lib/toast';
import { useForgetUser } from '../auth/session';
import { FreshProofDialog } from './fresh-proof-dialog';

export function DeleteAccountDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const forgetUser = useForgetUser();
  const deleteAccount = useMutation({ mutationFn: profileApi.deleteAccount });

  return (
    <FreshProofDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('Delete your account?')}
      description={t(
        'This permanently deletes your account, your family members and every health record you have saved. It cannot be undone.',
      )}
      confirmLabel={t('Delete Account')}
      errorTitle={t(toasts.deleteAccountError)}
      pending={deleteAccount.isPending}
      onProof={async (proof) => {
        await deleteAccount.mutateAsync(proof);
        showSuccess({
          title: t(toasts.accountDeleted.title),
          description: toasts.accountDeleted.description
            ? t(toasts.accountDeleted.description)
            : undefined,
        });
        await forgetUser();
        navigate('/auth', { replace: true });
      }}
    />
  );
}
