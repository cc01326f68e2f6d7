/**
 * /reset-password?token=…, opened from a reset mail (CONTRACT.md §5 'Account recovery'):
 * 'New Password' (the sign-up rules) and 'Reset Password', then 'Password reset. Sign in
 * with your new password.' No session and no Friends & Family Passcode are asked; the
 * passcode is asked at the next sign-in, as always.
 *
 * The account's passkeys are listed, each with 'Remove passkey {name}', and 'Remove all
 * passkeys': a passkey someone else added while they had the account goes with the reset
 * (decision 0048). The link is the proof; the server lists them for it alone.
 */
import { useQuery } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { APP_NAME } from '../../../shared/constants';
import {
  PASSWORD_RESET_DONE_MESSAGE,
  passkeysRemovedMessage,
  passwordResetSchema,
  RESET_LINK_INVALID_MESSAGE,
} from '../../../shared/account-recovery';
import type { PasskeyListItem } from '../../../shared/passkeys';
import { Button } from '../../components/ui/button';
import { Checkbox } from '../../components/ui/input';
import { authApi } from '../../lib/auth-api';
import { useCredentialSubmit } from './use-credential-submit';
import { AuthBackdrop } from './auth-backdrop';
import { NewPasswordField } from './new-password-field';

/** The account's passkeys, each to keep or remove with the reset, and all at once. */
function PasskeyChoices({
  passkeys,
  chosen,
  onChange,
}: {
  passkeys: PasskeyListItem[];
  chosen: ReadonlySet<string>;
  onChange: (chosen: Set<string>) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const all = passkeys.length > 0 && passkeys.every((passkey) => chosen.has(passkey.id));
  return (
    <fieldset className="space-y-2">
      <legend className="mb-1 text-sm font-medium">{t('Passkeys on this account')}</legend>
      <p className="text-sm text-muted-foreground">
        {t(
          'A passkey signs in without a password. Remove any you do not know: they stay otherwise.',
        )}
      </p>
      {passkeys.map((passkey) => (
        <Checkbox
          key={passkey.id}
          id={`${id}-${passkey.id}`}
          label={t('Remove passkey {name}', { name: passkey.name })}
          checked={chosen.has(passkey.id)}
          onChange={(event) => {
            const next = new Set(chosen);
            if (event.target.checked) next.add(passkey.id);
            else next.delete(passkey.id);
            onChange(next);
          }}
        />
      ))}
      <Checkbox
        id={`${id}-all`}
        label={t('Remove all passkeys')}
        checked={all}
        onChange={(event) =>
          onChange(new Set(event.target.checked ? passkeys.map((passkey) => passkey.id) : []))
        }
      />
    </fieldset>
  );
}

function ResetPasswordForm({
  token,
  onDone,
}: {
  token: string;
  onDone: (passkeysRemoved: number) => void;
}) {
  const { t } = useTranslation();
  const [newPassword, setNewPassword] = useState('');
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const passkeys = useQuery({
    queryKey: ['reset-password-passkeys', token],
    queryFn: () => authApi.resetPasswordPasskeys(token),
    retry: false,
  });
  const listed = passkeys.data?.passkeys ?? [];
  const { pending, submit } = useCredentialSubmit(passwordResetSchema, async (data) => {
    const result = await authApi.resetPassword(data);
    onDone(result.passkeys_removed);
  });
  const removePasskeys =
    listed.length > 0 && listed.every((passkey) => chosen.has(passkey.id))
      ? 'all'
      : listed.filter((passkey) => chosen.has(passkey.id)).map((passkey) => passkey.id);
  return (
    <form
      onSubmit={(event) =>
        submit(event, {
          token,
          newPassword,
          ...(removePasskeys.length > 0 ? { removePasskeys } : {}),
        })
      }
      className="space-y-4"
      aria-label={t('Reset Password')}
      noValidate
    >
      <NewPasswordField id="reset-new-password" value={newPassword} onChange={setNewPassword} />
      {listed.length > 0 ? (
        <PasskeyChoices passkeys={listed} chosen={chosen} onChange={setChosen} />
      ) : null}
      <Button type="submit" size="lg" className="w-full" disabled={pending}>
        {pending ? t('Saving...') : t('Reset Password')}
      </Button>
    </form>
  );
}

export function ResetPasswordPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [done, setDone] = useState<{ passkeysRemoved: number } | null>(null);
  useEffect(() => {
    document.title = `${t('Reset Password')} · ${APP_NAME}`;
  }, [t]);
  return (
    <AuthBackdrop>
      <div className="rounded-3xl border border-border bg-surface p-5 shadow-xl sm:p-7">
        <h1 className="mb-6 flex items-center gap-2 text-2xl font-bold tracking-tight">
          <KeyRound className="size-6 text-primary" aria-hidden="true" />
          {t('Reset Password')}
        </h1>
        {done ? (
          <p role="status" className="rounded-2xl bg-primary-soft p-4 text-sm">
            {t(PASSWORD_RESET_DONE_MESSAGE)}
            {done.passkeysRemoved > 0 ? ` ${passkeysRemovedMessage(done.passkeysRemoved)}` : ''}
          </p>
        ) : token ? (
          <ResetPasswordForm
            token={token}
            onDone={(passkeysRemoved) => setDone({ passkeysRemoved })}
          />
        ) : (
          <p role="alert" className="text-sm text-destructive">
            {t(RESET_LINK_INVALID_MESSAGE)}
          </p>
        )}
        <div className="mt-6 text-center">
          <Button asChild variant="link">
            <Link to="/auth">{t('Sign In')}</Link>
          </Button>
        </div>
      </div>
    </AuthBackdrop>
  );
}

export default ResetPasswordPage;
