/**
 * /reset-password?token=…, opened from a reset mail (CONTRACT.md §5 'Account recovery'):
 * 'New Password' (the sign-up rules) and 'Reset Password', then 'Password reset. Sign in
 * with your new password.' No session and no Friends & Family Passcode are asked; the
 * passcode is asked at the next sign-in, as always.
 */
import { KeyRound } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { APP_NAME } from '../../../shared/constants';
import {
  PASSWORD_RESET_DONE_MESSAGE,
  passwordResetSchema,
  RESET_LINK_INVALID_MESSAGE,
} from '../../../shared/account-recovery';
import { Button } from '../../components/ui/button';
import { authApi } from '../../lib/api';
import { useCredentialSubmit } from './use-credential-submit';
import { AuthBackdrop } from './auth-backdrop';
import { NewPasswordField } from './new-password-field';

function ResetPasswordForm({ token, onDone }: { token: string; onDone: () => void }) {
  const [newPassword, setNewPassword] = useState('');
  const { pending, submit } = useCredentialSubmit(passwordResetSchema, async (data) => {
    await authApi.resetPassword(data);
    onDone();
  });
  return (
    <form
      onSubmit={(event) => submit(event, { token, newPassword })}
      className="space-y-4"
      aria-label="Reset Password"
      noValidate
    >
      <NewPasswordField id="reset-new-password" value={newPassword} onChange={setNewPassword} />
      <Button type="submit" size="lg" className="w-full" disabled={pending}>
        {pending ? 'Saving...' : 'Reset Password'}
      </Button>
    </form>
  );
}

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [done, setDone] = useState(false);
  useEffect(() => {
    document.title = `Reset Password · ${APP_NAME}`;
  }, []);
  return (
    <AuthBackdrop>
      <div className="rounded-3xl border border-border bg-surface p-5 shadow-xl sm:p-7">
        <h1 className="mb-6 flex items-center gap-2 text-2xl font-bold tracking-tight">
          <KeyRound className="size-6 text-primary" aria-hidden="true" />
          Reset Password
        </h1>
        {done ? (
          <p role="status" className="rounded-2xl bg-primary-soft p-4 text-sm">
            {PASSWORD_RESET_DONE_MESSAGE}
          </p>
        ) : token ? (
          <ResetPasswordForm token={token} onDone={() => setDone(true)} />
        ) : (
          <p role="alert" className="text-sm text-destructive">
            {RESET_LINK_INVALID_MESSAGE}
          </p>
        )}
        <div className="mt-6 text-center">
          <Button asChild variant="link">
            <Link to="/auth">Sign In</Link>
          </Button>
        </div>
      </div>
    </AuthBackdrop>
  );
}

export default ResetPasswordPage;
