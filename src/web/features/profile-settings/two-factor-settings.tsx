/**
 * Two-factor sign-in in the settings: turning an authenticator app on (password, then the
 * QR code and setup key, then a code from the app, then the backup codes, shown once),
 * seeing the factor, and turning it off with the password.
 */
import {
  Check,
  Download,
  KeyRound,
  Printer,
  ShieldCheck,
  ShieldOff,
  Smartphone,
} from 'lucide-react';
import QRCode from 'qrcode';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { APP_NAME } from '../../../shared/constants';
import { key, tr } from '../../../shared/i18n/translate';
import { toasts } from '../../../shared/messages';
import {
  AUTHENTICATION_CODE_LENGTH,
  filterAuthenticationCodeInput,
  passwordConfirmationSchema,
  verifyAuthenticationCodeSchema,
  type TwoFactorFactor,
} from '../../../shared/account-security';
import { Button, buttonVariants } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { CopyButton } from '../../components/ui/copy-button';
import { Dialog, DialogClose, DialogContent } from '../../components/ui/dialog';
import { DigitsInput } from '../../components/ui/digits-input';
import { Loading } from '../../components/ui/feedback';
import { FormField } from '../../components/ui/form-field';
import { Input, Textarea } from '../../components/ui/input';
import type { TwoFactorEnrolment } from './security-api';
import { saveBlob } from '../../lib/save-file';
import { errorMessage, showError, showSuccess } from '../../lib/toast';
import { parseOrShowError } from '../../lib/validate';
import {
  useConfirmTwoFactor,
  useDisableTwoFactor,
  useEnableTwoFactor,
  useFactors,
} from './security-queries';

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

/**
 * The password before two-factor sign-in is turned on or off; the server checks it. A
 * refusal shows as an 'Error' toast and leaves the password for another try.
 */
function PasswordConfirmation({
  id,
  intro,
  submitLabel,
  pendingLabel,
  destructive = false,
  pending,
  onConfirm,
}: {
  id: string;
  intro: string;
  submitLabel: string;
  pendingLabel: string;
  destructive?: boolean;
  pending: boolean;
  onConfirm: (password: string) => Promise<void>;
}) {
  const { t } = useTranslation();
  // Kept inside the dialog's content, so it goes when the dialog closes.
  const [password, setPassword] = useState('');

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseOrShowError(passwordConfirmationSchema, { password }, t(toasts.error));
    if (!parsed) return;
    try {
      await onConfirm(parsed.password);
    } catch (error) {
      showError(t(toasts.error), error);
    }
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <p className="text-sm text-muted-foreground">{intro}</p>
      <FormField id={id} label={t('Password')}>
        <Input
          id={id}
          type="password"
          autoComplete="current-password"
          required
          autoFocus
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </FormField>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <DialogClose asChild>
          <Button variant="outline">{t('Cancel')}</Button>
        </DialogClose>
        <Button type="submit" variant={destructive ? 'destructive' : 'primary'} disabled={pending}>
          {pending ? pendingLabel : submitLabel}
        </Button>
      </div>
    </form>
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

type SetupStep =
  | { step: 'password' }
  | { step: 'scan'; enrolment: TwoFactorEnrolment }
  | { step: 'backup-codes'; backupCodes: string[] };

function SetupDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  const [state, setState] = useState<SetupStep>({ step: 'password' });
  const [code, setCode] = useState('');
  const enable = useEnableTwoFactor();
  const confirm = useConfirmTwoFactor();

  useEffect(() => {
    if (!open) {
      // Nothing of a setup (the key, the codes) outlives its dialog; the password goes
      // with the dialog's content.
      setState({ step: 'password' });
      setCode('');
    }
  }, [open]);

  async function submitCode(event: FormEvent) {
    event.preventDefault();
    if (state.step !== 'scan') return;
    const parsed = parseOrShowError(verifyAuthenticationCodeSchema, { code }, t(toasts.error));
    if (!parsed) return;
    try {
      await confirm.mutateAsync(parsed.code);
      // No toast here: on a phone it would sit on the dialog's buttons; the dialog says it.
      setState({ step: 'backup-codes', backupCodes: state.enrolment.backupCodes });
    } catch (error) {
      setCode('');
      showError(t(toasts.error), error);
    }
  }

  const titles = {
    password: t('Turn on two-factor sign-in'),
    scan: t('Set up your authenticator app'),
    'backup-codes': t('Save your backup codes'),
  } as const;

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={titles[state.step]}>
        {state.step === 'password' ? (
          <PasswordConfirmation
            id="two-factor-enable-password"
            intro={t(
              'Each sign-in will also ask for a code from an authenticator app on your phone. To start, confirm it is you.',
            )}
            submitLabel={t('Continue')}
            pendingLabel={t('Checking...')}
            pending={enable.isPending}
            onConfirm={async (password) => {
              const enrolment = await enable.mutateAsync(password);
              setState({ step: 'scan', enrolment });
            }}
          />
        ) : state.step === 'scan' ? (
          <form onSubmit={submitCode} className="space-y-4" noValidate>
            <p className="text-sm text-muted-foreground">
              {t(
                'Scan this QR code with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password, Aegis…), then enter the 6-digit code it shows.',
              )}
            </p>
            <QrCode value={state.enrolment.totpURI} />
            <FormField id="two-factor-setup-key" label={t('Setup key')}>
              {/* Wrapped, not cut off, on a phone: the whole key must be readable. */}
              <Textarea
                id="two-factor-setup-key"
                readOnly
                rows={2}
                aria-describedby="two-factor-setup-key-hint"
                size="code"
                value={setupKeyOf(state.enrolment.totpURI)}
              />
              <p id="two-factor-setup-key-hint" className="text-xs text-muted-foreground">
                {t(
                  'Can’t scan? Type or paste this key into the app, or, on this phone, open the app from the link.',
                )}
              </p>
              <div className="flex flex-wrap gap-2">
                <CopyButton
                  text={new URL(state.enrolment.totpURI).searchParams.get('secret') ?? ''}
                  label={t('Copy Key')}
                />
                {/* A phone cannot scan its own screen: otpauth: opens its authenticator app. */}
                <a
                  href={state.enrolment.totpURI}
                  className={buttonVariants({ variant: 'outline', size: 'sm' })}
                >
                  <KeyRound aria-hidden="true" />
                  {t('Open in Authenticator App')}
                </a>
              </div>
            </FormField>
            <FormField id="two-factor-setup-code" label={t('Authentication Code')}>
              <DigitsInput
                length={AUTHENTICATION_CODE_LENGTH}
                filter={filterAuthenticationCodeInput}
                autoComplete="one-time-code"
                id="two-factor-setup-code"
                required
                value={code}
                onValueChange={setCode}
              />
            </FormField>
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <DialogClose asChild>
                <Button variant="outline">{t('Cancel')}</Button>
              </DialogClose>
              <Button type="submit" disabled={confirm.isPending}>
                {confirm.isPending ? t('Verifying...') : t('Verify and Turn On')}
              </Button>
            </div>
          </form>
        ) : (
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
              {state.backupCodes.map((backupCode) => (
                <li key={backupCode} className="rounded-lg bg-surface px-2 py-1.5 text-center">
                  {backupCode}
                </li>
              ))}
            </ul>
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:flex-wrap sm:justify-end">
              <CopyButton text={state.backupCodes.join('\n')} label={t('Copy Codes')} />
              <Button variant="outline" onClick={() => downloadBackupCodes(state.backupCodes)}>
                <Download aria-hidden="true" />
                {t('Download Codes')}
              </Button>
              <Button variant="outline" onClick={() => printBackupCodes(state.backupCodes)}>
                <Printer aria-hidden="true" />
                {t('Print Codes')}
              </Button>
              <DialogClose asChild>
                <Button>{t('Done')}</Button>
              </DialogClose>
            </div>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}

function DisableDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  const disable = useDisableTwoFactor();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={t('Turn off two-factor sign-in')}>
        <PasswordConfirmation
          id="two-factor-disable-password"
          intro={t(
            'Sign-in will no longer ask for a code, and your backup codes stop working. Confirm with your password.',
          )}
          submitLabel={t('Turn Off')}
          pendingLabel={t('Turning off...')}
          destructive
          pending={disable.isPending}
          onConfirm={async (password) => {
            await disable.mutateAsync(password);
            showSuccess({
              title: t('Two-factor sign-in is off'),
              description: t('Sign-in asks for your email, password and passcode only.'),
            });
            onOpenChange(false);
          }}
        />
      </DialogContent>
    </Dialog>
  );
}

/** A factor's status, as its row names it (only verified factors are listed). */
const STATUS_WORDS: Partial<Record<string, string>> = { verified: key('verified') };

function FactorRow({ factor, onTurnOff }: { factor: TwoFactorFactor; onTurnOff: () => void }) {
  const { t } = useTranslation();
  return (
    <li className="flex flex-col gap-3 rounded-2xl border border-border p-3 sm:flex-row sm:items-center">
      <div className="flex min-w-0 flex-1 items-center gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-primary-soft text-primary">
          <Smartphone className="size-5" aria-hidden="true" />
        </span>
        <div className="min-w-0 flex-1">
          <p className="font-medium">{factor.friendly_name}</p>
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-muted-foreground">
            <span>
              {t('Type:')} <span className="font-medium uppercase">{factor.factor_type}</span>
            </span>
            <span className="inline-flex items-center gap-1 rounded-full bg-primary-soft px-2 py-0.5 text-xs font-semibold text-primary">
              <Check className="size-3" aria-hidden="true" />
              <span className="capitalize">{t(STATUS_WORDS[factor.status] ?? factor.status)}</span>
            </span>
          </p>
        </div>
      </div>
      <Button variant="outline" size="sm" className="self-end sm:self-center" onClick={onTurnOff}>
        <ShieldOff aria-hidden="true" />
        {t('Turn Off')}
      </Button>
    </li>
  );
}

export function TwoFactorSettings() {
  const { t } = useTranslation();
  const factors = useFactors();
  const [settingUp, setSettingUp] = useState(false);
  const [turningOff, setTurningOff] = useState(false);
  const verified = factors.data?.filter((factor) => factor.status === 'verified') ?? [];
  const on = verified.length > 0;

  return (
    <Card className="p-5">
      <section aria-labelledby="two-factor-heading" className="space-y-4">
        <div className="flex items-start gap-3">
          <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-primary-soft text-primary">
            {on ? (
              <ShieldCheck className="size-5" aria-hidden="true" />
            ) : (
              <KeyRound className="size-5" aria-hidden="true" />
            )}
          </span>
          <div className="min-w-0 flex-1">
            <h2 id="two-factor-heading" className="font-semibold">
              {t('Two-factor sign-in')}
            </h2>
            <p className="text-sm text-muted-foreground">
              {on
                ? t(
                    'On. Signing in asks for a code from your authenticator app after your password and passcode.',
                  )
                : t(
                    'Off. Add a code from an authenticator app to each sign-in, so a stolen password is not enough.',
                  )}
            </p>
          </div>
        </div>
        {factors.isPending ? (
          <Loading compact />
        ) : factors.isError ? (
          <p className="text-sm text-destructive">
            {t('Could not load two-factor sign-in: {message}', {
              message: errorMessage(factors.error),
            })}
          </p>
        ) : on ? (
          <ul aria-label={t('Second factors')} className="space-y-2">
            {verified.map((factor) => (
              <FactorRow key={factor.id} factor={factor} onTurnOff={() => setTurningOff(true)} />
            ))}
          </ul>
        ) : (
          <Button onClick={() => setSettingUp(true)}>
            <ShieldCheck aria-hidden="true" />
            {t('Turn On')}
          </Button>
        )}
      </section>
      <SetupDialog open={settingUp} onOpenChange={setSettingUp} />
      <DisableDialog open={turningOff} onOpenChange={setTurningOff} />
    </Card>
  );
}
