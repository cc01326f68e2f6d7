/**
 * /auth: Sign In and Sign Up (SPEC.md §2, §5). The passcode is checked here for its form
 * and by the server for its value; every refusal shows as an 'Error' toast. With two-factor
 * sign-in on, a second step asks for the code after the password and passcode.
 */
import { HeartPulse, LockKeyhole } from 'lucide-react';
import { Suspense, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { lazyPart } from '../../lib/when-reachable';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { APP_NAME, APP_TAGLINE, PASSWORD_MIN_LENGTH } from '../../../shared/constants';
import { key } from '../../../shared/i18n/translate';
import { toasts } from '../../../shared/messages';
import { PasswordStrengthMeter } from '../../components/password-strength-meter';
import { Button } from '../../components/ui/button';
import { PasscodeInput } from './code-inputs';
import { Loading } from '../../components/ui/feedback';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs';
import { authApi } from '../../lib/auth-api';
import { showSuccess } from '../../lib/toast';
import { useSession, useSignedIn } from './session';
import { useCredentialSubmit } from './use-credential-submit';
import { ForgotPassword } from './forgot-password';
import { PasskeySignIn, usePasskeyAutofill, usePasskeysOffered } from './passkey-sign-in';
import {
  SingleSignOnButton,
  SingleSignOnRefusal,
  useSingleSignOnName,
  useSingleSignOnReturn,
} from './single-sign-on';

// The forms' schemas (and the validation library under them) load once the user starts
// on a form; only accounts with two-factor sign-in reach the second step.
const loadSignInSchema = () => import('../../../shared/auth').then((m) => m.signInSchema);
const loadSignUpSchema = () => import('../../../shared/auth').then((m) => m.signUpSchema);
const SecondFactorStep = lazyPart(() => import('./second-factor-step'));
const SingleSignOnStep = lazyPart(() => import('./single-sign-on-step'));

const forms = {
  signin: {
    name: key('Sign In'),
    pendingName: key('Signing in...'),
    passwordAutoComplete: 'current-password',
  },
  signup: {
    name: key('Sign Up'),
    pendingName: key('Creating account...'),
    passwordAutoComplete: 'new-password',
  },
} as const;

interface Credentials {
  email: string;
  password: string;
  passcode: string;
}

/** The email typed on either tab, and its setter: it stays when the user switches tabs. */
type SharedEmail = [string, (email: string) => void];

/**
 * What both tabs ask for, the email, the password and the passcode, then the submit. A
 * tab's own fields (Sign Up's Full Name) come first, as children.
 */
function CredentialsForm({
  kind,
  pending,
  onSubmit,
  onFocus,
  email,
  emailAutoComplete = 'email',
  children,
}: {
  kind: keyof typeof forms;
  pending: boolean;
  onSubmit: (event: FormEvent, credentials: Credentials) => void;
  onFocus: () => void;
  email: SharedEmail;
  /** The email field's autocomplete: with passkeys, its suggestions include them. */
  emailAutoComplete?: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const form = forms[kind];
  const signingUp = kind === 'signup';
  const [typedEmail, setEmail] = email;
  const [secrets, setSecrets] = useState({ password: '', passcode: '' });
  const credentials: Credentials = { email: typedEmail, ...secrets };
  const update = (field: keyof Credentials, value: string) =>
    field === 'email' ? setEmail(value) : setSecrets((current) => ({ ...current, [field]: value }));

  return (
    <form
      onSubmit={(event) => onSubmit(event, credentials)}
      onFocus={onFocus}
      className="space-y-4"
      aria-label={t(form.name)}
      // The shared schema's messages, as visible text, rather than the browser's bubbles.
      noValidate
    >
      {children}
      <FormField id={`${kind}-email`} label={t('Email')}>
        <Input
          id={`${kind}-email`}
          type="email"
          autoComplete={emailAutoComplete}
          required
          value={credentials.email}
          onChange={(e) => update('email', e.target.value)}
        />
      </FormField>
      <FormField id={`${kind}-password`} label={t('Password')}>
        <Input
          id={`${kind}-password`}
          type="password"
          autoComplete={form.passwordAutoComplete}
          required
          minLength={signingUp ? PASSWORD_MIN_LENGTH : undefined}
          aria-describedby={signingUp ? 'signup-password-hint signup-password-strength' : undefined}
          value={credentials.password}
          onChange={(e) => update('password', e.target.value)}
        />
        {signingUp ? (
          <p id="signup-password-hint" className="text-xs text-muted-foreground">
            {t('At least {count} characters.', { count: PASSWORD_MIN_LENGTH })}
          </p>
        ) : null}
        {signingUp ? (
          <PasswordStrengthMeter id="signup-password-strength" password={credentials.password} />
        ) : null}
      </FormField>
      <FormField id={`${kind}-passcode`} label={t('Friends & Family Passcode')}>
        <PasscodeInput
          id={`${kind}-passcode`}
          value={credentials.passcode}
          onValueChange={(value) => update('passcode', value)}
        />
      </FormField>
      <Button type="submit" size="lg" className="w-full" disabled={pending}>
        {t(pending ? form.pendingName : form.name)}
      </Button>
    </form>
  );
}

function SignInForm({
  onSecondFactor,
  email,
  passkeys,
}: {
  onSecondFactor: () => void;
  email: SharedEmail;
  passkeys: boolean;
}) {
  const signedIn = useSignedIn();
  const offerPasskeys = usePasskeyAutofill();
  const { pending, submit, prepare } = useCredentialSubmit(loadSignInSchema, async (data) => {
    const result = await authApi.signIn(data);
    if (result?.twoFactorRedirect) onSecondFactor();
    else await signedIn();
  });
  return (
    <CredentialsForm
      kind="signin"
      pending={pending}
      onSubmit={submit}
      onFocus={() => {
        prepare();
        if (passkeys) offerPasskeys();
      }}
      email={email}
      emailAutoComplete={passkeys ? 'username webauthn' : 'email'}
    />
  );
}

function SignUpForm({ email }: { email: SharedEmail }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const signedIn = useSignedIn();
  const { pending, submit, prepare } = useCredentialSubmit(loadSignUpSchema, async (data) => {
    await authApi.signUp(data);
    showSuccess({
      title: t(toasts.signedUp.title),
      description: t(toasts.signedUp.description),
    });
    await signedIn();
  });
  return (
    <CredentialsForm
      kind="signup"
      pending={pending}
      onSubmit={(event, credentials) => submit(event, { name, ...credentials })}
      onFocus={prepare}
      email={email}
    >
      <FormField id="signup-name" label={t('Full Name')}>
        <Input
          id="signup-name"
          autoComplete="name"
          required
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
      </FormField>
    </CredentialsForm>
  );
}

export function AuthPage() {
  const { t } = useTranslation();
  const session = useSession();
  useEffect(() => {
    document.title = `${t('Sign In')} · ${APP_NAME}`;
  }, [t]);
  const [secondFactor, setSecondFactor] = useState(false);
  const email = useState('');
  const passkeys = usePasskeysOffered();
  // Single sign-on (single-sign-on.tsx): its button, and what its return asks for.
  const singleSignOnName = useSingleSignOnName();
  const singleSignOn = useSingleSignOnReturn();
  if (session.isPending) return <Loading className="min-h-dvh" />;
  if (session.data) return <Navigate to="/" replace />;

  return (
    <div className="min-h-dvh bg-gradient-to-b from-primary-soft to-background px-4 py-10 sm:py-16">
      <main className="mx-auto w-full max-w-md">
        <div className="mb-8 flex flex-col items-center text-center">
          <span className="mb-4 flex size-16 items-center justify-center rounded-3xl bg-primary text-primary-foreground shadow-lg">
            <HeartPulse className="size-9" aria-hidden="true" />
          </span>
          <h1 className="text-3xl font-bold tracking-tight">{APP_NAME}</h1>
          <p className="mt-2 text-muted-foreground">{t(APP_TAGLINE)}</p>
        </div>
        <div className="rounded-3xl border border-border bg-surface p-5 shadow-xl sm:p-7">
          {secondFactor ? (
            <Suspense fallback={<Loading />}>
              <SecondFactorStep onBack={() => setSecondFactor(false)} />
            </Suspense>
          ) : singleSignOn.step && singleSignOnName ? (
            <Suspense fallback={<Loading />}>
              <SingleSignOnStep
                step={singleSignOn.step}
                name={singleSignOnName}
                onBack={singleSignOn.clear}
              />
            </Suspense>
          ) : (
            <Tabs defaultValue="sign-in">
              {singleSignOn.refusal && singleSignOnName ? (
                <SingleSignOnRefusal error={singleSignOn.refusal} name={singleSignOnName} />
              ) : null}
              <TabsList className="mb-6">
                <TabsTrigger value="sign-in">{t('Sign In')}</TabsTrigger>
                <TabsTrigger value="sign-up">{t('Sign Up')}</TabsTrigger>
              </TabsList>
              <TabsContent value="sign-in">
                <ForgotPassword email={email[0]}>
                  <SignInForm
                    onSecondFactor={() => setSecondFactor(true)}
                    email={email}
                    passkeys={passkeys}
                  />
                </ForgotPassword>
                {passkeys ? <PasskeySignIn /> : null}
                {singleSignOnName ? <SingleSignOnButton name={singleSignOnName} /> : null}
              </TabsContent>
              <TabsContent value="sign-up">
                <SignUpForm email={email} />
              </TabsContent>
            </Tabs>
          )}
        </div>
        <p className="mt-6 flex items-center justify-center gap-2 text-center text-sm text-muted-foreground">
          <LockKeyhole className="size-4" aria-hidden="true" />
          {t('Private to your family. Ask the person who runs it for the passcode.')}
        </p>
      </main>
    </div>
  );
}

export default AuthPage;
