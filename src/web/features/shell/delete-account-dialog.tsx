/**
 * Deleting the account: asks first, and asks for a fresh proof that the person at the
 * keyboard owns it (the password, and with two-factor sign-in on, a code from the
 * authenticator app or a backup code), as the server does.
 */
import { useMutation } from '@tanstack/react-query';
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
  const navigate = useNavigate();
  const forgetUser = useForgetUser();
  const deleteAccount = useMutation({ mutationFn: profileApi.deleteAccount });

  return (
    <FreshProofDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Delete your account?"
      description="This permanently deletes your account, your family members and every health record you have saved. It cannot be undone."
      confirmLabel="Delete Account"
      errorTitle={toasts.deleteAccountError}
      pending={deleteAccount.isPending}
      onProof={async (proof) => {
        await deleteAccount.mutateAsync(proof);
        showSuccess(toasts.accountDeleted);
        await forgetUser();
        navigate('/auth', { replace: true });
      }}
    />
  );
}
