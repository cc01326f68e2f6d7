/**
 * The confirm step of something that asks for a fresh proof that the person at the keyboard
 * owns the account, as the server does (account/fresh-proof.ts): the password, and with
 * two-factor sign-in on, a code from the authenticator app or a backup code. Deleting the
 * account and removing a passkey ask it alike.
 */
import { useId, useState, type ReactNode } from 'react';
import { freshProofSchema, type FreshProof } from '../../../shared/account-security';
import { ApiError } from '../../../shared/api-error';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { fieldErrorProps, FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { showError } from '../../lib/toast';
import { parseOrShowError } from '../../lib/validate';
import { useFactors } from '../profile-settings/security-queries';

/** With two-factor sign-in on, the code is asked for as well as the password. */
const freshProofWithCodeSchema = freshProofSchema.refine((proof) => proof.code !== undefined, {
  path: ['code'],
  error: 'Authentication Code is required',
});

type ProofField = 'password' | 'code';

export function FreshProofDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  pendingLabel,
  errorTitle,
  pending,
  onProof,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  pendingLabel?: string;
  /** The title of the toast of a refusal. */
  errorTitle: string;
  pending: boolean;
  /** Sends the proof; a refusal naming a field is shown under it. */
  onProof: (proof: FreshProof) => Promise<unknown>;
}) {
  const id = useId();
  const factors = useFactors();
  const twoFactorOn = factors.data?.some((factor) => factor.status === 'verified') ?? false;
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Partial<Record<ProofField, string>>>({});

  const close = (next: boolean) => {
    if (!next) {
      setPassword('');
      setCode('');
      setErrors({});
    }
    onOpenChange(next);
  };

  const confirm = () => {
    const proof = parseOrShowError(
      twoFactorOn ? freshProofWithCodeSchema : freshProofSchema,
      { password, code: twoFactorOn ? code : undefined },
      errorTitle,
      ({ field, message }) => setErrors({ [field === 'code' ? 'code' : 'password']: message }),
    );
    if (!proof) return;
    setErrors({});
    onProof(proof).then(
      () => close(false),
      (error: unknown) => {
        if (error instanceof ApiError && (error.field === 'password' || error.field === 'code')) {
          setErrors({ [error.field]: error.message });
        }
        showError(errorTitle, error);
      },
    );
  };

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={close}
      title={title}
      description={description}
      confirmLabel={confirmLabel}
      pendingLabel={pendingLabel}
      pending={pending}
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
