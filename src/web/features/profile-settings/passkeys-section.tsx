/**
 * Profile Settings' 'Passkeys' (CONTRACT.md §5): 'Add Passkey' asks the password (and code)
 * first, as the server does (decision 0048), then makes one on this device, named by the
 * device and renamable; each is listed with when it was added and last used, and 'Remove
 * passkey {name}' removes it after the same proof, as deleting the account asks.
 */
import { FingerprintPattern, PencilLine, Plus, Trash2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
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
  const id = useId();
  const [name, setName] = useState(passkey.name);
  const [error, setError] = useState<string | undefined>();
  const rename = useRenamePasskey();

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseOrShowError(passkeyNameSchema, name, toasts.error, (issue) =>
      setError(issue.message),
    );
    if (parsed === null || parsed === undefined) return;
    setError(undefined);
    rename.mutate(
      { id: passkey.id, name: parsed },
      {
        onSuccess: () => {
          showSuccess({ title: 'Passkey renamed', description: `It is now ${parsed}.` });
          onDone();
        },
        onError: (failure) => showError(toasts.error, failure),
      },
    );
  }

  return (
    <form
      onSubmit={submit}
      className="mt-3 space-y-3"
      aria-label={`Rename ${passkey.name}`}
      noValidate
    >
      <FormField id={`${id}-name`} label="Passkey Name" required error={error}>
        <Input
          id={`${id}-name`}
          required
          autoFocus
          value={name}
          {...fieldErrorProps(`${id}-name`, error)}
          onChange={(event) => setName(event.target.value)}
        />
      </FormField>
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={rename.isPending}>
          {rename.isPending ? 'Saving...' : 'Save Name'}
        </Button>
        <Button type="button" size="sm" variant="outline" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function PasskeyRow({ passkey, onRemove }: { passkey: PasskeyListItem; onRemove: () => void }) {
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
              <dt className="text-muted-foreground">Added</dt>
              <dd>{passkey.created_at ? formatDate(passkey.created_at, DAY_FORMAT) : 'Unknown'}</dd>
              <dt className="text-muted-foreground">Last used</dt>
              <dd>
                {passkey.last_used_at
                  ? formatDate(passkey.last_used_at, SESSION_TIME_FORMAT)
                  : 'Not yet'}
              </dd>
            </dl>
          </div>
        </div>
        <div className="flex gap-2 self-end sm:self-center">
          <Button
            variant="outline"
            size="sm"
            onClick={() => setRenaming(true)}
            aria-label={`Rename passkey ${passkey.name}`}
          >
            <PencilLine aria-hidden="true" />
            Rename
          </Button>
          <Button
            variant="outline"
            size="sm"
            onClick={onRemove}
            aria-label={`Remove passkey ${passkey.name}`}
          >
            <Trash2 aria-hidden="true" />
            Remove
          </Button>
        </div>
      </div>
      {renaming ? <RenameForm passkey={passkey} onDone={() => setRenaming(false)} /> : null}
    </li>
  );
}

export function PasskeysSection() {
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
            Passkeys
          </h2>
          <p className="text-sm text-muted-foreground">
            Sign in with this device’s fingerprint, face or screen lock instead of your password and
            passcode. A passkey counts as both steps of two-factor sign-in.
          </p>
        </div>
        {passkeys.isPending ? (
          <Loading className="py-4" />
        ) : passkeys.isError ? (
          <p className="text-sm text-destructive">
            Could not load your passkeys: {errorMessage(passkeys.error)}
          </p>
        ) : passkeys.data.length > 0 ? (
          <ul aria-label="Passkeys" className="space-y-2">
            {passkeys.data.map((passkey) => (
              <PasskeyRow
                key={passkey.id}
                passkey={passkey}
                onRemove={() => setRemoving(passkey)}
              />
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">No passkeys yet.</p>
        )}
        <Button onClick={() => setAdding(true)} disabled={add.isPending}>
          <Plus aria-hidden="true" />
          {add.isPending ? 'Adding...' : 'Add Passkey'}
        </Button>
      </section>
      <FreshProofDialog
        open={adding}
        onOpenChange={setAdding}
        title="Add a passkey?"
        description="A passkey signs in to your account without a password. Confirm that it is you; then this device asks for its fingerprint, face or screen lock."
        confirmLabel="Continue"
        pendingLabel="Adding..."
        errorTitle={toasts.error}
        pending={add.isPending}
        onProof={async (proof) => {
          await add.mutateAsync(proof);
          showSuccess({
            title: 'Passkey added',
            description: 'This device can now sign you in without a password.',
          });
        }}
      />
      <FreshProofDialog
        open={removing !== null}
        onOpenChange={(open) => {
          if (!open) setRemoving(null);
        }}
        title={`Remove passkey ${removing?.name ?? ''}?`}
        description="It will no longer sign you in. Confirm with your password; your password and other passkeys keep working."
        confirmLabel="Remove Passkey"
        pendingLabel="Removing..."
        errorTitle={toasts.error}
        pending={remove.isPending}
        onProof={async (proof) => {
          if (!removing) return;
          await remove.mutateAsync({ id: removing.id, proof });
          showSuccess({ title: 'Passkey removed', description: `${removing.name} is removed.` });
        }}
      />
    </Card>
  );
}
