/**
 * Making a share link (CONTRACT.md §4 "Share"): Person, what to include (record types, and
 * any of the person's 'Documents'), 'Expires', 'Language' (the reader's, CONTRACT §6: the
 * viewer opens in it; the app's own by default) and an
 * optional 'Link Passcode', then 'Create Link'. The link then shows in a read-only 'Share
 * Link' field with its QR code and 'Copy Link'; from 'Share via Email' or 'Share via
 * Message' it is also handed over through the Web Share API where the browser has it, and
 * through a prefilled `mailto:` ('Open Email') or `sms:` ('Open Messages') link.
 */
import { Copy, Mail, MessageSquare, Share2 } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_SHARE_LINK_EXPIRY_DAYS,
  LINK_PASSCODE_MESSAGE,
  SHARE_LINK_EXPIRY_CHOICES,
  SHAREABLE_RECORD_LABELS,
  SHAREABLE_RECORD_TYPES,
  type ShareableRecordType,
  type ShareLinkExpiryDays,
} from '../../../shared/share-links';
import { LONG_DATE_TIME_FORMAT, formatDate } from '../../../shared/dates';
import { isLanguageCode, LANGUAGES, type LanguageCode } from '../../../shared/i18n/languages';
import { key, type Translator } from '../../../shared/i18n/translate';
import { toasts } from '../../../shared/messages';
import { LocalLinkWarning } from '../../components/local-link-warning';
import { Button, buttonVariants } from '../../components/ui/button';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { FieldError, FormField } from '../../components/ui/form-field';
import { Checkbox, Input, Select } from '../../components/ui/input';
import { currentLanguageCode } from '../../lib/i18n';
import { showError, showSuccess } from '../../lib/toast';
import { PersonSelect, useChosenPerson } from '../family-members/person-select';
import { useUnits } from '../profile-settings/profile-queries';
import { useCreateShareLink, type CreatedShareLink } from './share-link-queries';
import { WholeFamilyContacts } from './whole-family-contacts';
import { ShareDocuments, sharedDocumentsProblem, useShareableDocuments } from './share-documents';
import { linkLanguage } from '../../viewer/viewer-url';
import { readerTranslator } from './reader-words';

export type ShareMode = 'link' | 'email' | 'message';

const TITLES: Record<ShareMode, string> = {
  link: key('Generate Share Link'),
  email: key('Share via Email'),
  message: key('Share via Message'),
};

/**
 * The link with the words it goes to its reader with, in the reader's language: the mail's
 * subject and the short message.
 */
interface MadeLink extends CreatedShareLink {
  subject: string;
  message: string;
}

function readerWords(
  reader: Translator,
  personName: string,
  link: string,
  days: number,
): Pick<MadeLink, 'subject' | 'message'> {
  return {
    subject: reader.t('Health records of {name}', { name: personName }),
    message: reader.t(
      "Here are {name}'s health records from Kin Health (the link expires in {days}): {link}",
      { name: personName, days: reader.t('{count} days', { count: days }), link },
    ),
  };
}

export function ShareLinkDialog({
  mode,
  onOpenChange,
}: {
  mode: ShareMode | null;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={mode !== null} onOpenChange={onOpenChange}>
      {mode ? (
        <DialogContent
          title={t(TITLES[mode])}
          description={t(
            'Only someone with the link can open it. The records are encrypted in your browser; the key stays in the link.',
          )}
        >
          <ShareLinkForm key={mode} mode={mode} />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

function ShareLinkForm({ mode }: { mode: ShareMode }) {
  const { t } = useTranslation();
  const ids = {
    expires: useId(),
    language: useId(),
    passcode: useId(),
    link: useId(),
    include: useId(),
  };
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
  // The reader's language: by default the one the app speaks now.
  const [language, setLanguage] = useState<LanguageCode>(currentLanguageCode);
  const [passcode, setPasscode] = useState('');
  // Each problem is shown under the field it is about.
  const [problem, setProblem] = useState<{
    field: 'include' | 'documents' | 'passcode';
    message: string;
  }>();
  const [created, setCreated] = useState<MadeLink | null>(null);
  const create = useCreateShareLink();
  const units = useUnits();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (types.length === 0) {
      return setProblem({ field: 'include', message: t('Choose at least one kind of record') });
    }
    const tooLarge = sharedDocumentsProblem(chosenDocuments);
    if (tooLarge) return setProblem({ field: 'documents', message: t(tooLarge) });
    if (passcode && passcode.length < 4) {
      return setProblem({ field: 'passcode', message: t(LINK_PASSCODE_MESSAGE) });
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
        language: linkLanguage(language, currentLanguageCode()),
      },
      {
        onSuccess: (made) =>
          void readerTranslator(language).then((reader) =>
            setCreated({ ...made, ...readerWords(reader, personName, made.link, days) }),
          ),
        onError: (error) => showError(t(toasts.error), error),
      },
    );
  };

  if (created) {
    return <CreatedLink mode={mode} created={created} passcode={passcode} linkId={ids.link} />;
  }

  const toggle = (type: ShareableRecordType, on: boolean) =>
    setTypes((current) =>
      on
        ? SHAREABLE_RECORD_TYPES.filter((t) => t === type || current.includes(t))
        : current.filter((t) => t !== type),
    );

  const withContacts = types.includes('contact');

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
        <legend className="mb-1.5 text-sm font-medium">{t('Include')}</legend>
        <div className="grid grid-cols-2 gap-2">
          {SHAREABLE_RECORD_TYPES.map((type) => (
            <Checkbox
              key={type}
              id={`${ids.include}-${type}`}
              label={t(SHAREABLE_RECORD_LABELS[type])}
              checked={types.includes(type)}
              onChange={(event) => toggle(type, event.target.checked)}
            />
          ))}
        </div>
        {withContacts ? (
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
      <FormField id={ids.expires} label={t('Expires')}>
        <Select
          id={ids.expires}
          value={String(days)}
          onChange={(event) => setDays(Number(event.target.value) as ShareLinkExpiryDays)}
        >
          {SHARE_LINK_EXPIRY_CHOICES.map((choice) => (
            <option key={choice} value={choice}>
              {t('{count} days', { count: choice })}
            </option>
          ))}
        </Select>
      </FormField>
      <FormField id={ids.language} label={t('Language')}>
        <Select
          id={ids.language}
          value={language}
          aria-describedby={`${ids.language}-hint`}
          onChange={(event) => {
            if (isLanguageCode(event.target.value)) setLanguage(event.target.value);
          }}
        >
          {LANGUAGES.map((choice) => (
            <option key={choice.code} value={choice.code} lang={choice.code}>
              {choice.name}
            </option>
          ))}
        </Select>
        <p id={`${ids.language}-hint`} className="text-xs text-muted-foreground">
          {t('The link opens in this language for the person who reads it.')}
        </p>
      </FormField>
      <FormField
        id={ids.passcode}
        label={t('Link Passcode')}
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
          {t('Optional. Tell it to the recipient separately; 10 wrong tries lock the link.')}
        </p>
      </FormField>
      <Button type="submit" className="w-full" disabled={!personId || create.isPending}>
        {create.isPending ? t('Creating...') : t('Create Link')}
      </Button>
    </form>
  );
}

function CreatedLink({
  mode,
  created: { link, expiresAt, subject, message },
  passcode,
  linkId,
}: {
  mode: ShareMode;
  created: MadeLink;
  passcode: string;
  linkId: string;
}) {
  const { t } = useTranslation();
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
      showSuccess(t('Link copied'));
    } catch {
      showError(
        t('Could not copy the link'),
        new Error(t('Select the link and copy it yourself.')),
      );
    }
  };
  const canShare = typeof navigator.share === 'function';
  const share = () => {
    navigator.share({ title: subject, text: message }).catch(() => undefined);
  };

  return (
    <div className="space-y-4">
      <FormField id={linkId} label={t('Share Link')}>
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
        <p className="font-medium">{t('Shown only now: copy the link before you close this.')}</p>
        <p>
          {t('Passcode:')}{' '}
          {passcode ? (
            <strong className="font-semibold">{passcode}</strong>
          ) : (
            t('none (anyone with the link can open it)')
          )}
        </p>
        <p>{t('Expires {date}', { date: formatDate(expiresAt, LONG_DATE_TIME_FORMAT) })}</p>
      </div>
      <LocalLinkWarning link={link} />
      <div className="flex justify-center">
        {qr ? (
          <img
            src={qr}
            alt={t('QR code for the share link')}
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
            {t('Share')}
          </Button>
        ) : null}
        {mode === 'email' ? (
          <a
            className={buttonVariants({ variant: canShare ? 'outline' : 'primary' })}
            href={`mailto:?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(message)}`}
          >
            <Mail aria-hidden="true" />
            {t('Open Email')}
          </a>
        ) : null}
        {mode === 'message' ? (
          <a
            className={buttonVariants({ variant: canShare ? 'outline' : 'primary' })}
            href={`sms:?&body=${encodeURIComponent(message)}`}
          >
            <MessageSquare aria-hidden="true" />
            {t('Open Messages')}
          </a>
        ) : null}
        <Button type="button" variant="outline" onClick={() => void copy()}>
          <Copy aria-hidden="true" />
          {t('Copy Link')}
        </Button>
      </div>
    </div>
  );
}
