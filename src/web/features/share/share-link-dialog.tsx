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
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LONG_DATE_TIME_FORMAT, formatDate } from '../../../shared/dates';
import { key } from '../../../shared/i18n/translate';
import { LocalLinkWarning } from '../../components/local-link-warning';
import { Button, buttonVariants } from '../../components/ui/button';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { showError, showSuccess } from '../../lib/toast';
import { PersonSelect } from '../family-members/person-select';
import { ShareDocuments } from './share-documents';
import { IncludeFieldset, LinkSettingsFields } from './share-link-fields';
import { useShareLink, type MadeLink } from './use-share-link';

export type ShareMode = 'link' | 'email' | 'message';

const TITLES: Record<ShareMode, string> = {
  link: key('Generate Share Link'),
  email: key('Share via Email'),
  message: key('Share via Message'),
};

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
  const link = useShareLink();
  const { problem, create } = link;

  if (link.created) {
    return (
      <CreatedLink mode={mode} created={link.created} passcode={link.passcode} linkId={ids.link} />
    );
  }

  return (
    <form className="space-y-4" noValidate onSubmit={link.submit}>
      <PersonSelect
        value={link.personId}
        onChange={link.setChosenPerson}
        disabled={create.isPending}
        exportable
      />
      <IncludeFieldset id={ids.include} link={link} />
      <ShareDocuments
        documents={link.documents}
        chosen={link.documentIds}
        onChange={link.setDocumentIds}
        problem={problem?.field === 'documents' ? problem.message : undefined}
        disabled={create.isPending}
      />
      <LinkSettingsFields ids={ids} link={link} />
      <Button type="submit" className="w-full" disabled={!link.personId || create.isPending}>
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
