/**
 * Profile Settings, 'Email': a new address, with the password (and code) first, as the
 * server asks (decision 0048), confirmed by a link sent to it (the old one is told). The
 * address changes only when the link is followed, which brings the browser back here, and
 * both addresses are told. Without mail on the server, the change is not offered, and the
 * section says why.
 */
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
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
import { authApi } from '../../lib/api';
import { parseOrShowError } from '../../lib/validate';
import { useFreshProof } from '../shell/fresh-proof-dialog';
import { useChangeEmail } from './security-queries';

export const EMAIL_CHANGED_MESSAGE = 'Email changed. Sign in with your new email from now on.';
export const EMAIL_LINK_FAILED_MESSAGE =
  'That confirmation link has expired or has already been used. Ask for a new one.';

export function EmailSection({ currentEmail }: { currentEmail: string }) {
  const options = useQuery({ queryKey: ['account-recovery'], queryFn: authApi.accountRecovery });
  const [params] = useSearchParams();
  const [open, setOpen] = useState(false);
  const [newEmail, setNewEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const change = useChangeEmail();
  const freshProof = useFreshProof(open, toasts.error);
  const mail = options.data?.email === true;
  const followed =
    params.get('email') === 'changed'
      ? params.has('error')
        ? EMAIL_LINK_FAILED_MESSAGE
        : EMAIL_CHANGED_MESSAGE
      : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    const data = parseOrShowError(emailChangeSchema, { newEmail }, toasts.error);
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
      <h2 className="font-semibold">Email</h2>
      <p className="mb-4 text-sm text-muted-foreground">
        Your account&rsquo;s email is {currentEmail}. A new one takes effect when you follow the
        link we send to it.
      </p>
      {followed ? (
        <p role="status" className="mb-4 rounded-2xl bg-primary-soft p-4 text-sm">
          {followed}
        </p>
      ) : null}
      {sentTo ? (
        <p role="status" className="mb-4 rounded-2xl bg-primary-soft p-4 text-sm">
          {emailChangeSentMessage(sentTo)}
        </p>
      ) : null}
      {options.isSuccess && !mail ? (
        <p className="mb-4 text-sm text-muted-foreground">{EMAIL_CHANGE_NOT_SET_UP_MESSAGE}</p>
      ) : null}
      {open ? (
        <form onSubmit={submit} className="space-y-4" aria-label="Change Email" noValidate>
          <FormField id="email-new" label="New Email">
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
              {change.isPending ? 'Sending...' : 'Send Confirmation Link'}
            </Button>
            <Button
              type="button"
              variant="outline"
              onClick={() => {
                freshProof.reset();
                setOpen(false);
              }}
            >
              Cancel
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
          Change Email
        </Button>
      )}
    </Card>
  );
}
