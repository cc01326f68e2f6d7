/**
 * Two-factor sign-in in the settings: turning an authenticator app on (password, then the
 * QR code and setup key, then a code from the app, then the backup codes, shown once),
 * seeing the factor, and turning it off with the password.
 */
import { Check, KeyRound, ShieldCheck, ShieldOff, Smartphone } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { key } from '../../../shared/i18n/translate';
import { toasts } from '../../../shared/messages';
import { passwordConfirmationSchema, type TwoFactorFactor } from '../../../shared/account-security';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Dialog, DialogClose, DialogContent } from '../../components/ui/dialog';
import { Loading } from '../../components/ui/feedback';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { errorMessage, showError, showSuccess } from '../../lib/toast';
import { parseOrShowError } from '../../lib/validate';
import { useDisableTwoFactor, useFactors } from './security-queries';
import { BackupCodesStep, ScanStep } from './two-factor-setup-steps';
import { useTwoFactorSetup } from './use-two-factor-setup';

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

function SetupDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  const setup = useTwoFactorSetup(open);
  const { state } = setup;

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
            pending={setup.enable.isPending}
            onConfirm={setup.startEnrolment}
          />
        ) : state.step === 'scan' ? (
          <ScanStep
            enrolment={state.enrolment}
            code={setup.code}
            onCodeChange={setup.setCode}
            pending={setup.confirm.isPending}
            onSubmit={setup.submitCode}
          />
        ) : (
          <BackupCodesStep backupCodes={state.backupCodes} />
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
