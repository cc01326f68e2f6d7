/**
 * Back from the identity provider, the one more step a single sign-on may need: the Friends
 * & Family Passcode for a new account, or the password of the existing account with the
 * same email, once (CONTRACT.md §5 'Passkeys and single sign-on'); or the new passcode, once,
 * after the passcode changed (decision 0048).
 */
import { ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  SSO_PASSCODE_CHANGED,
  SSO_PASSCODE_NEEDED,
  type SSO_PASSWORD_NEEDED,
} from '../../../shared/single-sign-on';
import {
  finishSingleSignOnSchema,
  linkSingleSignOnSchema,
} from '../../../shared/single-sign-on-steps';
import { Button } from '../../components/ui/button';
import { PasscodeInput } from './code-inputs';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { authApi } from '../../lib/auth-api';
import { useSignedIn } from './session';
import { useCredentialSubmit } from './use-credential-submit';

/** The passcode (new account) or the password (existing account), once. */
export function SingleSignOnStep({
  step,
  name,
  onBack,
}: {
  step: typeof SSO_PASSCODE_NEEDED | typeof SSO_PASSWORD_NEEDED | typeof SSO_PASSCODE_CHANGED;
  name: string;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  const signedIn = useSignedIn();
  const [value, setValue] = useState('');
  const passcodeChanged = step === SSO_PASSCODE_CHANGED;
  const newAccount = step === SSO_PASSCODE_NEEDED;
  const passcodeAsked = newAccount || passcodeChanged;
  const { pending, submit } = useCredentialSubmit<{ passcode?: string; password?: string }>(
    passcodeAsked ? finishSingleSignOnSchema : linkSingleSignOnSchema,
    async (data) => {
      if (data.passcode !== undefined) await authApi.finishSingleSignOn(data.passcode);
      else await authApi.linkSingleSignOn(data.password ?? '');
      await signedIn();
    },
  );
  return (
    <form
      onSubmit={(event) => submit(event, passcodeAsked ? { passcode: value } : { password: value })}
      className="space-y-5"
      noValidate
      aria-labelledby="sso-step-title"
    >
      <div>
        <h2 id="sso-step-title" className="text-lg font-semibold">
          {passcodeChanged
            ? t('Enter the new passcode')
            : newAccount
              ? t('Create your account')
              : t('Link your account')}
        </h2>
        <p className="text-sm text-muted-foreground">
          {passcodeChanged
            ? t(
                'The Friends & Family Passcode has changed since you last used it. Enter the new one once to sign in with {name}.',
                { name },
              )
            : newAccount
              ? t(
                  'This is your first sign-in with {name}. Enter the Friends & Family Passcode to create your account; later sign-ins will not ask for it.',
                  { name },
                )
              : t(
                  'An account with this email already exists. Enter its password once to sign in with {name} from now on.',
                  { name },
                )}
        </p>
      </div>
      {passcodeAsked ? (
        <FormField id="sso-passcode" label={t('Friends & Family Passcode')}>
          <PasscodeInput id="sso-passcode" value={value} onValueChange={setValue} />
        </FormField>
      ) : (
        <FormField id="sso-password" label={t('Password')}>
          <Input
            id="sso-password"
            type="password"
            autoComplete="current-password"
            required
            value={value}
            onChange={(event) => setValue(event.target.value)}
          />
        </FormField>
      )}
      <Button type="submit" size="lg" className="w-full" disabled={pending}>
        {passcodeChanged
          ? pending
            ? t('Signing in...')
            : t('Sign In')
          : newAccount
            ? pending
              ? t('Creating account...')
              : t('Create Account')
            : pending
              ? t('Linking...')
              : t('Link Account')}
      </Button>
      <div className="text-center">
        <Button variant="quiet" size="sm" onClick={onBack}>
          <ArrowLeft aria-hidden="true" />
          {t('Back')}
        </Button>
      </div>
    </form>
  );
}

export default SingleSignOnStep;
