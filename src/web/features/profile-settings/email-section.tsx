/**
 * Profile Settings, 'Email': a new address, with the password (and code) first, as the
 * server asks (decision 0048), confirmed by a link sent to it (the old one is told). The
 * address changes only when the link is followed, which brings the browser back here, and
 * both addresses are told. Without mail on the server, the change is not offered, and the
 * section says why.
 */
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import {
  EMAIL_CHANGE_NOT_SET_UP_MESSAGE,
  emailChangeSchema,
  emailChangeSentMessage,
} from '../../../shared/account-recovery';
import { toasts } from '../../../shared/messages';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { authApi } from '../../lib/auth-api';
import { key } from '../../../shared/i18n/translate';
import { parseOrShowError } from '../../lib/validate';
import { useFreshProof } from '../shell/fresh-proof-dialog';
import { useChangeEmail } from './security-queries';

export const EMAIL_CHANGED_MESSAGE = key('Email changed. Sign in with your new email from now on.');
export const EMAIL_LINK_FAILED_MESSAGE = key(
  'That confirmation link has expired or has already been used. Ask for a new one.',
);

export function EmailSection({ currentEmail }: { currentEmail: string }) {
  const { t } = useTranslation();
  const options = useQuery({ queryKey: ['account-recovery'], queryFn: authApi.accountRecovery });
  const [params] = useSearchParams();
  const [open, setOpen] = useState(false);
  const [newEmail, setNewEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const change = useChangeEmail();
  const freshProof = useFreshProof(open, t(toasts.error));
  const mail = options.data?.email === true;
  const followed =
    params.get('email') === 'changed'
      ? params.has('error')
        ? EMAIL_LINK_FAILED_MESSAGE
        : EMAIL_CHANGED_MESSAGE
      : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    const data = parseOrShowError(emailChangeSchema, { newEmail }, t(toasts.error));
    if (!data) return;
    const proof = freshProof.proof();
    if (!proof) return;
    change.mutate(
      { ...data, ...proof },
      {
        onSuccess: () => {
          setSentTo(data.newEmail);
          setNewEmail('');
          freshProof.reset();
          setOpen(false);
        },
        onError: freshProof.refused,
      },
    );
  }

  return (
    <Card className="p-5">
      <h2 className="font-semibold">{t('Email')}</h2>
      <p className="mb-4 text-sm text-muted-foreground">
        {t(
          'Your account’s email is {email}. A new one takes effect when you follow the link we send to it.',
          { email: currentEmail },
        )}
      </p>
      {followed ? (
        <p role="status" className="mb-4 rounded-2xl bg-primary-soft p-4 text-sm">
          {t(followed)}
        </p>
      ) : null}
      {sentTo ? (
        <p role="status" className="mb-4 rounded-2xl bg-primary-soft p-4 text-sm">
          {emailChangeSentMessage(sentTo)}
        </p>
      ) : null}
      {options.isSuccess && !mail ? (
        <p className="mb-4 text-sm text-muted-foreground">{t(EMAIL_CHANGE_NOT_SET_UP_MESSAGE)}</p>
      ) : null}
      {open ? (
        <form onSubmit={submit} className="space-y-4" aria-label={t('Change Email')} noValidate>
          <FormField id="email-new" label={t('New Email')}>
            <Input
              id="email-new"
              type="email"
              autoComplete="email"
              required
              value={newEmail}
              onChange={(e) => setNewEmail(e.target.value)}
            />
          </FormField>
          {freshProof.fields}
          <div className="flex flex-col gap-2 sm:flex-row">
            <Button type="submit" disabled={change.isPending}>
              {change.isPending ? t('Sending...') : t('Send Confirmation Link')}
            </Button>
            <Button
              type="button"
              variant="outline"
              onClick={() => {
                freshProof.reset();
                setOpen(false);
              }}
            >
              {t('Cancel')}
            </Button>
          </div>
        </form>
      ) : (
        <Button
          type="button"
          variant="outline"
          className="w-full sm:w-auto"
          disabled={!mail}
          onClick={() => setOpen(true)}
        >
          {t('Change Email')}
        </Button>
      )}
    </Card>
  );
}
