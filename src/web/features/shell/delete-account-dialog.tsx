/**
 * Deleting the account: asks first, and asks for a fresh proof that the person at the
 * keyboard owns it (the password, and with two-factor sign-in on, a code from the
 * authenticator app or a backup code), as the server does.
 */
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { toasts } from '../../../shared/messages';
import { freshProofSchema } from '../../../shared/account-security';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { fieldErrorProps, FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { ApiError } from '../../../shared/api-error';
import { profileApi } from '../../lib/api';
import { showError, showSuccess } from '../../lib/toast';
import { parseOrShowError } from '../../lib/validate';
import { useForgetUser } from '../auth/session';
import { useFactors } from '../profile-settings/security-queries';

/** With two-factor sign-in on, the code is asked for as well as the password. */
const freshProofWithCodeSchema = freshProofSchema.refine((proof) => proof.code !== undefined, {
  path: ['code'],
  error: 'Authentication Code is required',
});

export function DeleteAccountDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const id = useId();
  const navigate = useNavigate();
  const forgetUser = useForgetUser();
  const factors = useFactors();
  const twoFactorOn = factors.data?.some((factor) => factor.status === 'verified') ?? false;
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Partial<Record<'password' | 'code', string>>>({});

  const close = (next: boolean) => {
    if (!next) {
      setPassword('');
      setCode('');
      setErrors({});
    }
    onOpenChange(next);
  };

  const deleteAccount = useMutation({
    mutationFn: profileApi.deleteAccount,
    onSuccess: async () => {
      close(false);
      showSuccess(toasts.accountDeleted);
      await forgetUser();
      navigate('/auth', { replace: true });
    },
    onError: (error) => {
      if (error instanceof ApiError && (error.field === 'password' || error.field === 'code')) {
        setErrors({ [error.field]: error.message });
      }
      showError(toasts.deleteAccountError, error);
    },
  });

  const confirm = () => {
    const proof = parseOrShowError(
      twoFactorOn ? freshProofWithCodeSchema : freshProofSchema,
      { password, code: twoFactorOn ? code : undefined },
      toasts.deleteAccountError,
      ({ field, message }) => setErrors({ [field === 'code' ? 'code' : 'password']: message }),
    );
    if (!proof) return;
    setErrors({});
    deleteAccount.mutate(proof);
  };

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={close}
      title="Delete your account?"
      description="This permanently deletes your account, your family members and every health record you have saved. It cannot be undone."
      confirmLabel="Delete Account"
      pending={deleteAccount.isPending}
      onConfirm={confirm}
    >
      <FormField id={`${id}-password`} label="Password" required error={errors.password}>
        <Input
          id={`${id}-password`}
          type="password"
          autoComplete="current-password"
          required
          value={password}
          {...fieldErrorProps(`${id}-password`, errors.password)}
          onChange={(event) => setPassword(event.target.value)}
        />
      </FormField>
      {twoFactorOn ? (
        <FormField id={`${id}-code`} label="Authentication Code" required error={errors.code}>
          <Input
            id={`${id}-code`}
            type="text"
            autoComplete="one-time-code"
            placeholder="6 digits, or a backup code"
            required
            value={code}
            {...fieldErrorProps(`${id}-code`, errors.code)}
            onChange={(event) => setCode(event.target.value.trim())}
          />
        </FormField>
      ) : null}
    </ConfirmDialog>
  );
}
