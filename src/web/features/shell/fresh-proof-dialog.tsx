/**
 * The fresh proof that the person at the keyboard owns the account, asked as the server
 * asks it (account/fresh-proof.ts): the password, and with two-factor sign-in on, a code
 * from the authenticator app or a backup code; an account with no password confirms with a
 * sign-in of the last few minutes. Deleting the account, adding or removing a passkey and
 * signing out everywhere ask it in a confirm dialog (FreshProofDialog); changing the email
 * asks it in its own form (useFreshProof).
 */
import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  freshProofSchema,
  PASSWORD_REQUIRED_MESSAGE,
  RECENT_SIGN_IN_NEEDED_MESSAGE,
  type FreshProof,
} from '../../../shared/account-security';
import { ApiError } from '../../../shared/api-error';
import { tr } from '../../../shared/i18n/translate';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { fieldErrorProps, FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { errorMessage, showError } from '../../lib/toast';
import { parseOrShowError } from '../../lib/validate';
import { useFreshProofNeeds } from '../profile-settings/security-queries';

/** With a password, it is asked for. */
const withPasswordSchema = freshProofSchema.refine((proof) => proof.password !== undefined, {
  path: ['password'],
  error: () => tr(PASSWORD_REQUIRED_MESSAGE),
});
/** With two-factor sign-in on, the code is asked for as well as the password. */
const withCodeSchema = withPasswordSchema.refine((proof) => proof.code !== undefined, {
  path: ['code'],
  error: () => tr('Authentication Code is required'),
});

type ProofField = 'password' | 'code';

/**
 * The proof's fields for a form that is shown while `active`, and the proof they hold
 * (checked, the problem shown as a toast titled `errorTitle` and under its field).
 */
export function useFreshProof(active: boolean, errorTitle: string) {
  const { t } = useTranslation();
  const id = useId();
  const passwordId = `${id}-password`;
  const codeId = `${id}-code`;
  const needs = useFreshProofNeeds(active);
  // Until the answer is in, the password is asked: most accounts have one.
  const passwordAsked = needs.data?.password ?? true;
  const twoFactorOn = needs.data?.code ?? false;
  const recentSignInNeeded = needs.data
    ? !needs.data.password && !needs.data.recent_sign_in_until
    : false;
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Partial<Record<ProofField, string>>>({});

  const fields = (
    <>
      {passwordAsked ? (
        <FormField id={passwordId} label={t('Password')} required error={errors.password}>
          <Input
            id={passwordId}
            type="password"
            autoComplete="current-password"
            required
            value={password}
            {...fieldErrorProps(passwordId, errors.password)}
            onChange={(event) => setPassword(event.target.value)}
          />
        </FormField>
      ) : recentSignInNeeded ? (
        <p role="alert" className="text-sm text-destructive">
          {t(RECENT_SIGN_IN_NEEDED_MESSAGE)}
        </p>
      ) : (
        <p className="text-sm text-muted-foreground">
          {t('Your account has no password: your recent sign-in confirms that it is you.')}
        </p>
      )}
      {twoFactorOn ? (
        <FormField id={codeId} label={t('Authentication Code')} required error={errors.code}>
          <Input
            id={codeId}
            type="text"
            autoComplete="one-time-code"
            placeholder={t('6 digits, or a backup code')}
            required
            value={code}
            {...fieldErrorProps(codeId, errors.code)}
            onChange={(event) => setCode(event.target.value.trim())}
          />
        </FormField>
      ) : null}
    </>
  );

  return {
    fields,
    /** The proof, or undefined when a field is missing (said already). */
    proof: (): FreshProof | undefined => {
      const proof = parseOrShowError(
        twoFactorOn ? withCodeSchema : passwordAsked ? withPasswordSchema : freshProofSchema,
        {
          password: passwordAsked && password ? password : undefined,
          code: twoFactorOn && code ? code : undefined,
        },
        errorTitle,
        ({ field, message }) => setErrors({ [field === 'code' ? 'code' : 'password']: message }),
      );
      if (proof) setErrors({});
      return proof;
    },
    /** A refusal: shown under the field it names, and as a toast. */
    refused: (error: unknown) => {
      if (error instanceof ApiError && (error.field === 'password' || error.field === 'code')) {
        setErrors({ [error.field]: errorMessage(error) });
      }
      showError(errorTitle, error);
    },
    reset: () => {
      setPassword('');
      setCode('');
      setErrors({});
    },
  };
}

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
  const freshProof = useFreshProof(open, errorTitle);

  const close = (next: boolean) => {
    if (!next) freshProof.reset();
    onOpenChange(next);
  };

  const confirm = () => {
    const proof = freshProof.proof();
    if (!proof) return;
    onProof(proof).then(() => close(false), freshProof.refused);
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
      {freshProof.fields}
    </ConfirmDialog>
  );
}
