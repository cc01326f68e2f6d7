/**
 * The steps of turning two-factor sign-in on that follow the password: the QR code and setup
 * key to scan or type into an authenticator app with the code it then shows, and the backup
 * codes, shown once, to copy, download or print.
 */
import { Download, KeyRound, Printer, ShieldCheck } from 'lucide-react';
import QRCode from 'qrcode';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { APP_NAME } from '../../../shared/constants';
import { tr } from '../../../shared/i18n/translate';
import { toasts } from '../../../shared/messages';
import { Button, buttonVariants } from '../../components/ui/button';
import { CopyButton } from '../../components/ui/copy-button';
import { DialogClose } from '../../components/ui/dialog';
import { AuthenticationCodeInput } from '../auth/code-inputs';
import { FormField } from '../../components/ui/form-field';
import { Textarea } from '../../components/ui/input';
import { saveBlob } from '../../lib/save-file';
import { showError } from '../../lib/toast';
import type { TwoFactorEnrolment } from './security-api';

/** The setup key an authenticator app takes by hand, in groups of four for reading aloud. */
function setupKeyOf(totpURI: string): string {
  const secret = new URL(totpURI).searchParams.get('secret') ?? '';
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

function QrCode({ value }: { value: string }) {
  const { t } = useTranslation();
  const [dataUrl, setDataUrl] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    // A data: URL image: the page's CSP allows those, and no script runs inline.
    QRCode.toDataURL(value, { margin: 1, width: 240, errorCorrectionLevel: 'M' }).then(
      (url) => current && setDataUrl(url),
      () => current && setDataUrl(null),
    );
    return () => {
      current = false;
    };
  }, [value]);
  return (
    <div className="mx-auto flex size-[13.5rem] items-center justify-center rounded-2xl border border-border bg-white p-2">
      {dataUrl ? (
        <img
          src={dataUrl}
          width={200}
          height={200}
          className="size-full"
          alt={t('QR code to scan with your authenticator app')}
        />
      ) : (
        <span className="text-sm text-muted-foreground">{t('Loading...')}</span>
      )}
    </div>
  );
}

/** The title of the backup codes' file and printed page, in the language in force. */
const backupCodesTitle = () => tr('{app} backup codes', { app: APP_NAME });
const backupCodesAdvice = () =>
  tr(
    'Each code signs you in once instead of a code from your authenticator app. Keep them somewhere safe. Capitals or small letters, either works.',
  );

/** The codes as a text file, to keep with one's papers. */
function downloadBackupCodes(codes: string[]) {
  const text = [backupCodesTitle(), '', backupCodesAdvice(), '', ...codes, ''].join('\n');
  saveBlob(new Blob([text], { type: 'text/plain' }), 'kin-health-backup-codes.txt');
}

/**
 * The codes on a page of their own, and the browser's print dialog for it: built node by
 * node (no markup from strings), so nothing but the codes and their title is printed.
 */
function printBackupCodes(codes: string[]) {
  const printed = window.open('', '_blank', 'popup,width=480,height=640');
  if (!printed) {
    showError(tr(toasts.error), new Error(tr('Allow this site to open a window, then try again.')));
    return;
  }
  const { document: page } = printed;
  const title = backupCodesTitle();
  page.title = title;
  const add = (tag: string, text: string, style: string) => {
    const element = page.createElement(tag);
    element.textContent = text;
    element.setAttribute('style', style);
    page.body.append(element);
    return element;
  };
  page.body.setAttribute('style', 'font-family: system-ui, sans-serif; margin: 2rem;');
  add('h1', title, 'font-size: 1.4rem;');
  add('p', backupCodesAdvice(), 'max-width: 28rem;');
  const list = add('ul', '', 'list-style: none; padding: 0; font: 1.2rem/2 monospace;');
  for (const code of codes) {
    const item = page.createElement('li');
    item.textContent = code;
    list.append(item);
  }
  printed.focus();
  printed.print();
}

/** The app's step: scan the QR code (or type the key), then enter the code it shows. */
export function ScanStep({
  enrolment,
  code,
  onCodeChange,
  pending,
  onSubmit,
}: {
  enrolment: TwoFactorEnrolment;
  code: string;
  onCodeChange: (code: string) => void;
  pending: boolean;
  onSubmit: (event: FormEvent) => void;
}) {
  const { t } = useTranslation();
  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate>
      <p className="text-sm text-muted-foreground">
        {t(
          'Scan this QR code with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password, Aegis…), then enter the 6-digit code it shows.',
        )}
      </p>
      <QrCode value={enrolment.totpURI} />
      <FormField id="two-factor-setup-key" label={t('Setup key')}>
        {/* Wrapped, not cut off, on a phone: the whole key must be readable. */}
        <Textarea
          id="two-factor-setup-key"
          readOnly
          rows={2}
          aria-describedby="two-factor-setup-key-hint"
          size="code"
          value={setupKeyOf(enrolment.totpURI)}
        />
        <p id="two-factor-setup-key-hint" className="text-xs text-muted-foreground">
          {t(
            'Can’t scan? Type or paste this key into the app, or, on this phone, open the app from the link.',
          )}
        </p>
        <div className="flex flex-wrap gap-2">
          <CopyButton
            text={new URL(enrolment.totpURI).searchParams.get('secret') ?? ''}
            label={t('Copy Key')}
          />
          {/* A phone cannot scan its own screen: otpauth: opens its authenticator app. */}
          <a
            href={enrolment.totpURI}
            className={buttonVariants({ variant: 'outline', size: 'sm' })}
          >
            <KeyRound aria-hidden="true" />
            {t('Open in Authenticator App')}
          </a>
        </div>
      </FormField>
      <FormField id="two-factor-setup-code" label={t('Authentication Code')}>
        <AuthenticationCodeInput
          id="two-factor-setup-code"
          required
          value={code}
          onValueChange={onCodeChange}
        />
      </FormField>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <DialogClose asChild>
          <Button variant="outline">{t('Cancel')}</Button>
        </DialogClose>
        <Button type="submit" disabled={pending}>
          {pending ? t('Verifying...') : t('Verify and Turn On')}
        </Button>
      </div>
    </form>
  );
}

/** The last step: two-factor sign-in is on, and its backup codes, shown only now. */
export function BackupCodesStep({ backupCodes }: { backupCodes: string[] }) {
  const { t } = useTranslation();
  return (
    <div className="space-y-4">
      <p className="flex items-center gap-2 rounded-xl bg-primary-soft px-3 py-2 text-sm font-medium text-primary">
        <ShieldCheck className="size-4 shrink-0" aria-hidden="true" />
        {t('Two-factor sign-in is on.')}
      </p>
      <p className="text-sm text-muted-foreground">
        {t(
          'If you lose your phone, each of these codes signs you in once instead of a code from the app. Keep them somewhere safe: they are shown only now.',
        )}
      </p>
      <ul
        aria-label={t('Backup codes')}
        className="grid grid-cols-2 gap-2 rounded-2xl bg-surface-muted p-3 font-mono text-sm"
      >
        {backupCodes.map((backupCode) => (
          <li key={backupCode} className="rounded-lg bg-surface px-2 py-1.5 text-center">
            {backupCode}
          </li>
        ))}
      </ul>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:flex-wrap sm:justify-end">
        <CopyButton text={backupCodes.join('\n')} label={t('Copy Codes')} />
        <Button variant="outline" onClick={() => downloadBackupCodes(backupCodes)}>
          <Download aria-hidden="true" />
          {t('Download Codes')}
        </Button>
        <Button variant="outline" onClick={() => printBackupCodes(backupCodes)}>
          <Printer aria-hidden="true" />
          {t('Print Codes')}
        </Button>
        <DialogClose asChild>
          <Button>{t('Done')}</Button>
        </DialogClose>
      </div>
    </div>
  );
}
