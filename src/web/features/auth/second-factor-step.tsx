/**
 * The second step of signing in when two-factor sign-in is on: after the email, password
 * and passcode were accepted, the code from the authenticator app, or one backup code
 * instead. No session exists until this step succeeds.
 */
import { ArrowLeft, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toasts } from '../../../shared/messages';
import {
  verifyAuthenticationCodeSchema,
  verifyBackupCodeSchema,
} from '../../../shared/account-security';
import { Button } from '../../components/ui/button';
import { AuthenticationCodeInput } from './code-inputs';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { ApiError } from '../../../shared/api-error';
import { key } from '../../../shared/i18n/translate';
import { authApi } from '../../lib/auth-api';
import { showError } from '../../lib/toast';
import { useSignedIn } from './session';
import { useCredentialSubmit } from './use-credential-submit';

type Method = 'app' | 'backup';

/** better-auth's words for a challenge that is over (expired, or too many wrong codes). */
function challengeIsOver(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    (/two factor cookie/i.test(error.message) || /too many attempts/i.test(error.message))
  );
}

const CHALLENGE_OVER_MESSAGE = key(
  'This sign-in has expired or had too many wrong codes. Please sign in again.',
);

export function SecondFactorStep({ onBack }: { onBack: () => void }) {
  const { t } = useTranslation();
  const [method, setMethod] = useState<Method>('app');
  const [code, setCode] = useState('');
  const signedIn = useSignedIn();
  const { pending, submit } = useCredentialSubmit(
    method === 'app' ? verifyAuthenticationCodeSchema : verifyBackupCodeSchema,
    async ({ code: checked }) => {
      if (method === 'app') await authApi.verifyAuthenticationCode(checked);
      else await authApi.verifyBackupCode(checked);
      await signedIn();
    },
    (error) => {
      setCode('');
      if (challengeIsOver(error)) {
        showError(t(toasts.error), new Error(t(CHALLENGE_OVER_MESSAGE)));
        onBack();
      } else {
        showError(t(toasts.error), error);
      }
    },
  );

  function switchMethod(next: Method) {
    setMethod(next);
    setCode('');
  }

  return (
    <form
      onSubmit={(event) => submit(event, { code })}
      className="space-y-5"
      // Its own messages, as visible text, rather than the browser's bubbles.
      noValidate
      aria-labelledby="second-factor-title"
    >
      <div className="flex items-start gap-3">
        <span className="flex size-11 shrink-0 items-center justify-center rounded-2xl bg-primary-soft text-primary">
          <ShieldCheck className="size-6" aria-hidden="true" />
        </span>
        <div>
          <h2 id="second-factor-title" className="text-lg font-semibold">
            {t('Two-factor sign-in')}
          </h2>
          <p className="text-sm text-muted-foreground">
            {method === 'app'
              ? t('Enter the 6-digit code your authenticator app shows for Kin Health.')
              : t('Enter one of the backup codes you saved. Each code works once.')}
          </p>
        </div>
      </div>
      {method === 'app' ? (
        <FormField id="second-factor-code" label={t('Authentication Code')}>
          <AuthenticationCodeInput
            id="second-factor-code"
            autoFocus
            required
            value={code}
            onValueChange={setCode}
          />
        </FormField>
      ) : (
        <FormField id="second-factor-backup-code" label={t('Backup Code')}>
          <Input
            id="second-factor-backup-code"
            autoFocus
            required
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            // eslint-disable-next-line i18next/no-literal-string -- the shape of a backup code, not words
            placeholder="xxxxx-xxxxx"
            className="font-mono"
            value={code}
            onChange={(event) => setCode(event.target.value)}
          />
        </FormField>
      )}
      <Button type="submit" size="lg" className="w-full" disabled={pending}>
        {pending ? t('Verifying...') : t('Verify')}
      </Button>
      <div className="flex flex-col items-center gap-1">
        <Button variant="link" onClick={() => switchMethod(method === 'app' ? 'backup' : 'app')}>
          {method === 'app'
            ? t('Use a backup code instead')
            : t('Use your authenticator app instead')}
        </Button>
        <Button variant="quiet" size="sm" onClick={onBack}>
          <ArrowLeft aria-hidden="true" />
          {t('Back')}
        </Button>
      </div>
    </form>
  );
}

export default SecondFactorStep;
