/**
 * Profile Settings' 'Passkeys' (CONTRACT.md §5): 'Add Passkey' asks the password (and code)
 * first, as the server does (decision 0048), then makes one on this device, named by the
 * device and renamable; each is listed with when it was added and last used, and 'Remove
 * passkey {name}' removes it after the same proof, as deleting the account asks.
 */
import { FingerprintPattern, PencilLine, Plus, Trash2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../shared/dates';
import { toasts } from '../../../shared/messages';
import { passkeyNameSchema, type PasskeyListItem } from '../../../shared/passkeys';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Loading } from '../../components/ui/feedback';
import { fieldErrorProps, FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { errorMessage, showError, showSuccess } from '../../lib/toast';
import { parseOrShowError } from '../../lib/validate';
import { FreshProofDialog } from '../shell/fresh-proof-dialog';
import { SESSION_TIME_FORMAT } from './active-sessions';
import { useAddPasskey, usePasskeys, useRemovePasskey, useRenamePasskey } from './security-queries';

const DAY_FORMAT = 'MMM d, yyyy';

function RenameForm({ passkey, onDone }: { passkey: PasskeyListItem; onDone: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const [name, setName] = useState(passkey.name);
  const [error, setError] = useState<string | undefined>();
  const rename = useRenamePasskey();
  const nameField = `${id}-name`;

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseOrShowError(passkeyNameSchema, name, t(toasts.error), (issue) =>
      setError(issue.message),
    );
    if (parsed === null || parsed === undefined) return;
    setError(undefined);
    rename.mutate(
      { id: passkey.id, name: parsed },
      {
        onSuccess: () => {
          showSuccess({
            title: t('Passkey renamed'),
            description: t('It is now {name}.', { name: parsed }),
          });
          onDone();
        },
        onError: (failure) => showError(t(toasts.error), failure),
      },
    );
  }

  return (
    <form
      onSubmit={submit}
      className="mt-3 space-y-3"
      aria-label={t('Rename {name}', { name: passkey.name })}
      noValidate
    >
      <FormField id={nameField} label={t('Passkey Name')} required error={error}>
        <Input
          id={nameField}
          required
          autoFocus
          value={name}
          {...fieldErrorProps(nameField, error)}
          onChange={(event) => setName(event.target.value)}
        />
      </FormField>
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={rename.isPending}>
          {rename.isPending ? t('Saving...') : t('Save Name')}
        </Button>
        <Button type="button" size="sm" variant="outline" onClick={onDone}>
          {t('Cancel')}
        </Button>
      </div>
    </form>
  );
}

function PasskeyRow({ passkey, onRemove }: { passkey: PasskeyListItem; onRemove: () => void }) {
  const { t } = useTranslation();
  const [renaming, setRenaming] = useState(false);
  return (
    <li className="rounded-2xl border border-border p-3">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <div className="flex min-w-0 flex-1 items-start gap-3">
          <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-surface-muted text-foreground">
            <FingerprintPattern className="size-5" aria-hidden="true" />
          </span>
          <div className="min-w-0 flex-1">
            <p className="font-medium break-words">{passkey.name}</p>
            <dl className="mt-1 grid grid-cols-[max-content_1fr] gap-x-3 gap-y-0.5 text-sm">
              <dt className="text-muted-foreground">{t('Added')}</dt>
              <dd>
                {passkey.created_at ? formatDate(passkey.created_at, DAY_FORMAT) : t('Unknown')}
              </dd>
              <dt className="text-muted-foreground">{t('Last used')}</dt>
              <dd>
                {passkey.last_used_at
                  ? formatDate(passkey.last_used_at, SESSION_TIME_FORMAT)
                  : t('Not yet')}
              </dd>
            </dl>
          </div>
        </div>
        <div className="flex gap-2 self-end sm:self-center">
          <Button
            variant="outline"
            size="sm"
            onClick={() => setRenaming(true)}
            aria-label={t('Rename passkey {name}', { name: passkey.name })}
          >
            <PencilLine aria-hidden="true" />
            {t('Rename')}
          </Button>
          <Button
            variant="outline"
            size="sm"
            onClick={onRemove}
            aria-label={t('Remove passkey {name}', { name: passkey.name })}
          >
            <Trash2 aria-hidden="true" />
            {t('Remove')}
          </Button>
        </div>
      </div>
      {renaming ? <RenameForm passkey={passkey} onDone={() => setRenaming(false)} /> : null}
    </li>
  );
}

export function PasskeysSection() {
  const { t } = useTranslation();
  const passkeys = usePasskeys();
  const add = useAddPasskey();
  const remove = useRemovePasskey();
  const [removing, setRemoving] = useState<PasskeyListItem | null>(null);
  const [adding, setAdding] = useState(false);

  return (
    <Card className="p-5">
      <section aria-labelledby="passkeys-heading" className="space-y-4">
        <div>
          <h2 id="passkeys-heading" className="font-semibold">
            {t('Passkeys')}
          </h2>
          <p className="text-sm text-muted-foreground">
            {t(
              'Sign in with this device’s fingerprint, face or screen lock instead of your password and passcode. A passkey counts as both steps of two-factor sign-in.',
            )}
          </p>
        </div>
        {passkeys.isPending ? (
          <Loading compact />
        ) : passkeys.isError ? (
          <p className="text-sm text-destructive">
            {t('Could not load your passkeys: {message}', {
              message: errorMessage(passkeys.error),
            })}
          </p>
        ) : passkeys.data.length > 0 ? (
          <ul aria-label={t('Passkeys')} className="space-y-2">
            {passkeys.data.map((passkey) => (
              <PasskeyRow
                key={passkey.id}
                passkey={passkey}
                onRemove={() => setRemoving(passkey)}
              />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">{t('No passkeys yet.')}</p>
        )}
        <Button onClick={() => setAdding(true)} disabled={add.isPending}>
          <Plus aria-hidden="true" />
          {add.isPending ? t('Adding...') : t('Add Passkey')}
        </Button>
      </section>
      <FreshProofDialog
        open={adding}
        onOpenChange={setAdding}
        title={t('Add a passkey?')}
        description={t(
          'A passkey signs in to your account without a password. Confirm that it is you; then this device asks for its fingerprint, face or screen lock.',
        )}
        confirmLabel={t('Continue')}
        pendingLabel={t('Adding...')}
        errorTitle={t(toasts.error)}
        pending={add.isPending}
        onProof={async (proof) => {
          await add.mutateAsync(proof);
          showSuccess({
            title: t('Passkey added'),
            description: t('This device can now sign you in without a password.'),
          });
        }}
      />
      <FreshProofDialog
        open={removing !== null}
        onOpenChange={(open) => {
          if (!open) setRemoving(null);
        }}
        title={t('Remove passkey {name}?', { name: removing?.name ?? '' })}
        description={t(
          'It will no longer sign you in. Confirm with your password; your password and other passkeys keep working.',
        )}
        confirmLabel={t('Remove Passkey')}
        pendingLabel={t('Removing...')}
        errorTitle={t(toasts.error)}
        pending={remove.isPending}
        onProof={async (proof) => {
          if (!removing) return;
          await remove.mutateAsync({ id: removing.id, proof });
          showSuccess({
            title: t('Passkey removed'),
            description: t('{name} is removed.', { name: removing.name }),
          });
        }}
      />
    </Card>
  );
}
