/**
 * The request for a reset link (CONTRACT.md §5 'Account recovery'): 'Email' and 'Send Reset
 * Link', answered with the one message whoever the email belongs to; where the server has no
 * mail set up, it says so instead. Loaded when 'Forgot password?' is chosen: the sign-in
 * screen does not carry the validation library.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toasts } from '../../../shared/messages';
import {
  EMAIL_NOT_SET_UP_MESSAGE,
  passwordResetRequestSchema,
  RESET_LINK_SENT_MESSAGE,
} from '../../../shared/account-recovery';
import { Button } from '../../components/ui/button';
import { Loading } from '../../components/ui/feedback';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { authApi } from '../../lib/auth-api';
import { useCredentialSubmit } from './use-credential-submit';

function ResetRequestForm({ initialEmail }: { initialEmail: string }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState(initialEmail);
  const [sent, setSent] = useState(false);
  const { pending, submit } = useCredentialSubmit(passwordResetRequestSchema, async (data) => {
    await authApi.requestPasswordReset(data.email);
    setSent(true);
  });
  if (sent) {
    return (
      <p role="status" className="rounded-2xl bg-primary-soft p-4 text-sm">
        {t(RESET_LINK_SENT_MESSAGE)}
      </p>
    );
  }
  return (
    <form
      onSubmit={(event) => submit(event, { email })}
      className="space-y-4"
      aria-label={t('Reset Password')}
      noValidate
    >
      <p className="text-sm text-muted-foreground">
        {t(
          'Enter the email of your account, and we will send you a link to choose a new password.',
        )}
      </p>
      <FormField id="forgot-email" label={t('Email')}>
        <Input
          id="forgot-email"
          type="email"
          autoComplete="email"
          required
          // Opened by 'Forgot password?', which is gone now: the field takes its focus.
          autoFocus
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
      </FormField>
      <Button type="submit" size="lg" className="w-full" disabled={pending}>
        {pending ? t('Sending...') : t('Send Reset Link')}
      </Button>
    </form>
  );
}

/** The reset request, or why there is none: mail is not set up on this server. */
export default function ResetByEmail({ email }: { email: string }) {
  const { t } = useTranslation();
  const options = useQuery({ queryKey: ['account-recovery'], queryFn: authApi.accountRecovery });
  if (options.isPending) return <Loading />;
  if (options.isError) {
    return (
      <p role="alert" className="text-sm text-destructive">
        {t(toasts.error)}: {options.error.message}
      </p>
    );
  }
  if (!options.data.email) {
    return (
      <p role="status" className="rounded-2xl bg-surface-muted p-4 text-sm">
        {t(EMAIL_NOT_SET_UP_MESSAGE)}
      </p>
    );
  }
  return <ResetRequestForm initialEmail={email} />;
}
