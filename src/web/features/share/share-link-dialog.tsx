/**
 * Making a share link (CONTRACT.md §4 "Share"): Person, what to include (record types, and
 * any of the person's 'Documents'), 'Expires' and an
 * optional 'Link Passcode', then 'Create Link'. The link then shows in a read-only 'Share
 * Link' field with its QR code and 'Copy Link'; from 'Share via Email' or 'Share via
 * Message' it is also handed over through the Web Share API where the browser has it, and
 * through a prefilled `mailto:` ('Open Email') or `sms:` ('Open Messages') link.
 */
import { Copy, Mail, MessageSquare, Share2 } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import {
  DEFAULT_SHARE_LINK_EXPIRY_DAYS,
  SHARE_LINK_EXPIRY_CHOICES,
  SHAREABLE_RECORD_LABELS,
  SHAREABLE_RECORD_TYPES,
  type ShareableRecordType,
  type ShareLinkExpiryDays,
} from '../../../shared/share-links';
import { LONG_DATE_TIME_FORMAT, formatDate } from '../../../shared/dates';
import { toasts } from '../../../shared/messages';
import { LocalLinkWarning } from '../../components/local-link-warning';
import { Button, buttonVariants } from '../../components/ui/button';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { FieldError, FormField } from '../../components/ui/form-field';
import { Checkbox, Input, Select } from '../../components/ui/input';
import { showError, showSuccess } from '../../lib/toast';
import { PersonSelect, useChosenPerson } from '../family-members/person-select';
import { useUnits } from '../profile-settings/profile-queries';
import { useCreateShareLink, type CreatedShareLink } from './share-link-queries';
import { WholeFamilyContacts } from './whole-family-contacts';
import { ShareDocuments, sharedDocumentsProblem, useShareableDocuments } from './share-documents';

export type ShareMode = 'link' | 'email' | 'message';

const TITLES: Record<ShareMode, string> = {
  link: 'Generate Share Link',
  email: 'Share via Email',
  message: 'Share via Message',
};

const dayLabel = (days: number) => `${days} day${days === 1 ? '' : 's'}`;

/** The short message that goes with the link. */
function messageFor(personName: string, link: string, days: number) {
  return `Here are ${personName}'s health records from Kin Health (the link expires in ${dayLabel(days)}): ${link}`;
}

export function ShareLinkDialog({
  mode,
  onOpenChange,
}: {
  mode: ShareMode | null;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={mode !== null} onOpenChange={onOpenChange}>
      {mode ? (
        <DialogContent
          title={TITLES[mode]}
          description="Only someone with the link can open it. The records are encrypted in your browser; the key stays in the link."
        >
          <ShareLinkForm key={mode} mode={mode} />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

function ShareLinkForm({ mode }: { mode: ShareMode }) {
  const ids = { expires: useId(), passcode: useId(), link: useId(), include: useId() };
  // The person in view (CONTRACT.md §6), until another is chosen here.
  const { persons, personId, choose: setChosenPerson } = useChosenPerson({ exportable: true });
  const personName = (persons.find((p) => p.id === personId)?.label ?? '').replace(
    / \((you|shared by .*)\)$/,
    '',
  );
  const [types, setTypes] = useState<readonly ShareableRecordType[]>(SHAREABLE_RECORD_TYPES);
  const [wholeFamilyContacts, setWholeFamilyContacts] = useState(false);
  const documents = useShareableDocuments(personId);
  // By id; only those of the person now chosen count (another person's ticks do not).
  const [documentIds, setDocumentIds] = useState<ReadonlySet<string>>(new Set());
  const chosenDocuments = documents.filter((document) => documentIds.has(document.id));
  const [days, setDays] = useState<ShareLinkExpiryDays>(DEFAULT_SHARE_LINK_EXPIRY_DAYS);
  const [passcode, setPasscode] = useState('');
  // Each problem is shown under the field it is about.
  const [problem, setProblem] = useState<{
    field: 'include' | 'documents' | 'passcode';
    message: string;
  }>();
  const [created, setCreated] = useState<CreatedShareLink | null>(null);
  const create = useCreateShareLink();
  const units = useUnits();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (types.length === 0) {
      return setProblem({ field: 'include', message: 'Choose at least one kind of record' });
    }
    const tooLarge = sharedDocumentsProblem(chosenDocuments);
    if (tooLarge) return setProblem({ field: 'documents', message: tooLarge });
    if (passcode && passcode.length < 4) {
      return setProblem({
        field: 'passcode',
        message: 'Link Passcode must be 4 to 64 characters',
      });
    }
    setProblem(undefined);
    create.mutate(
      {
        personId,
        personName,
        types,
        wholeFamilyContacts: wholeFamilyContacts && types.includes('contact'),
        documentIds: chosenDocuments.map((document) => document.id),
        expiresInDays: days,
        passcode,
        units,
      },
      { onSuccess: setCreated, onError: (error) => showError(toasts.error, error) },
    );
  };

  if (created) {
    return (
      <CreatedLink
        mode={mode}
        created={created}
        passcode={passcode}
        linkId={ids.link}
        personName={personName}
        days={days}
      />
    );
  }

  const toggle = (type: ShareableRecordType, on: boolean) =>
    setTypes((current) =>
      on
        ? SHAREABLE_RECORD_TYPES.filter((t) => t === type || current.includes(t))
        : current.filter((t) => t !== type),
    );

  return (
    <form className="space-y-4" noValidate onSubmit={submit}>
      <PersonSelect
        value={personId}
        onChange={setChosenPerson}
        disabled={create.isPending}
        exportable
      />
      <fieldset
        className="space-y-2"
        aria-describedby={problem?.field === 'include' ? `${ids.include}-error` : undefined}
      >
        <legend className="mb-1.5 text-sm font-medium">Include</legend>
        <div className="grid grid-cols-2 gap-2">
          {SHAREABLE_RECORD_TYPES.map((type) => (
            <Checkbox
              key={type}
              id={`${ids.include}-${type}`}
              label={SHAREABLE_RECORD_LABELS[type]}
              checked={types.includes(type)}
              onChange={(event) => toggle(type, event.target.checked)}
            />
          ))}
        </div>
        {types.includes('contact') ? (
          <WholeFamilyContacts
            personId={personId}
            checked={wholeFamilyContacts}
            onChange={setWholeFamilyContacts}
            disabled={create.isPending}
          />
        ) : null}
        <FieldError
          id={`${ids.include}-error`}
          message={problem?.field === 'include' ? problem.message : undefined}
        />
      </fieldset>
      <ShareDocuments
        documents={documents}
        chosen={documentIds}
        onChange={setDocumentIds}
        problem={problem?.field === 'documents' ? problem.message : undefined}
        disabled={create.isPending}
      />
      <FormField id={ids.expires} label="Expires">
        <Select
          id={ids.expires}
          value={String(days)}
          onChange={(event) => setDays(Number(event.target.value) as ShareLinkExpiryDays)}
        >
          {SHARE_LINK_EXPIRY_CHOICES.map((choice) => (
            <option key={choice} value={choice}>
              {dayLabel(choice)}
            </option>
          ))}
        </Select>
      </FormField>
      <FormField
        id={ids.passcode}
        label="Link Passcode"
        error={problem?.field === 'passcode' ? problem.message : undefined}
      >
        <Input
          id={ids.passcode}
          type="text"
          autoComplete="off"
          value={passcode}
          maxLength={64}
          onChange={(event) => setPasscode(event.target.value)}
          aria-describedby={`${ids.passcode}-hint`}
        />
        <p id={`${ids.passcode}-hint`} className="text-xs text-muted-foreground">
          Optional. Tell it to the recipient separately; 10 wrong tries lock the link.
        </p>
      </FormField>
      <Button type="submit" className="w-full" disabled={!personId || create.isPending}>
        {create.isPending ? 'Creating...' : 'Create Link'}
      </Button>
    </form>
  );
}

function CreatedLink({
  mode,
  created: { link, expiresAt },
  passcode,
  linkId,
  personName,
  days,
}: {
  mode: ShareMode;
  created: CreatedShareLink;
  passcode: string;
  linkId: string;
  personName: string;
  days: number;
}) {
  const [qr, setQr] = useState<string | null>(null);
  // The link replaces the form the user submitted: focus goes to it (a screen reader reads
  // its label and the link), rather than falling to the dialog.
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), []);
  useEffect(() => {
    let live = true;
    void import('qrcode').then(({ toDataURL }) =>
      toDataURL(link, { errorCorrectionLevel: 'M', margin: 1, width: 240 }).then((url) => {
        if (live) setQr(url);
      }),
    );
    return () => {
      live = false;
    };
  }, [link]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      showSuccess('Link copied');
    } catch {
      showError('Could not copy the link', new Error('Select the link and copy it yourself.'));
    }
  };
  const message = messageFor(personName, link, days);
  const subject = `Health records of ${personName}`;
  const canShare = typeof navigator.share === 'function';
  const share = () => {
    navigator.share({ title: subject, text: message }).catch(() => undefined);
  };

  return (
    <div className="space-y-4">
      <FormField id={linkId} label="Share Link">
        <Input
          ref={field}
          id={linkId}
          readOnly
          value={link}
          onFocus={(event) => event.target.select()}
          aria-describedby={`${linkId}-once`}
        />
      </FormField>
      {/* Only a hash of the link is kept: what the recipient needs is all here, once. */}
      <div id={`${linkId}-once`} className="space-y-1 text-sm">
        <p className="font-medium">Shown only now: copy the link before you close this.</p>
        <p>
          Passcode:{' '}
          {passcode ? (
            <strong className="font-semibold">{passcode}</strong>
          ) : (
            'none (anyone with the link can open it)'
          )}
        </p>
        <p>Expires {formatDate(expiresAt, LONG_DATE_TIME_FORMAT)}</p>
      </div>
      <LocalLinkWarning link={link} />
      <div className="flex justify-center">
        {qr ? (
          <img
            src={qr}
            alt="QR code for the share link"
            width={200}
            height={200}
            className="rounded-xl border border-border"
          />
        ) : (
          <div className="size-[200px] rounded-xl bg-surface-muted" aria-hidden="true" />
        )}
      </div>
      <div className="flex flex-col gap-2">
        {mode !== 'link' && canShare ? (
          <Button type="button" onClick={share}>
            <Share2 aria-hidden="true" />
            Share
          </Button>
        ) : null}
        {mode === 'email' ? (
          <a
            className={buttonVariants({ variant: canShare ? 'outline' : 'primary' })}
            href={`mailto:?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(message)}`}
          >
            <Mail aria-hidden="true" />
            Open Email
          </a>
        ) : null}
        {mode === 'message' ? (
          <a
            className={buttonVariants({ variant: canShare ? 'outline' : 'primary' })}
            href={`sms:?&body=${encodeURIComponent(message)}`}
          >
            <MessageSquare aria-hidden="true" />
            Open Messages
          </a>
        ) : null}
        <Button type="button" variant="outline" onClick={() => void copy()}>
          <Copy aria-hidden="true" />
          Copy Link
        </Button>
      </div>
    </div>
  );
}
