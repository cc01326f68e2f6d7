/**
 * 'Sign in with a passkey' on the Sign In tab (CONTRACT.md §5): no email, password or
 * passcode asked, and no second step (a passkey is both factors). Where the browser offers
 * it, the passkeys of this device are also among the email field's suggestions
 * (conditional UI).
 */
import { useQuery } from '@tanstack/react-query';
import { FingerprintPattern } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button';
import { authApi } from '../../lib/auth-api';
import { showError } from '../../lib/toast';
import { tr } from '../../../shared/i18n/translate';
import { toasts } from '../../../shared/messages';
import { useSignedIn } from './session';

const loadCeremony = () => import('./passkey-ceremony');

/** Whether this server offers passkeys (PASSKEYS is not off). */
export function usePasskeysOffered(): boolean {
  const options = useQuery({
    queryKey: ['sign-in-options'],
    queryFn: authApi.signInOptions,
    staleTime: Infinity,
  });
  return options.data?.passkeys ?? false;
}

/**
 * Offers this device's passkeys among the email field's suggestions (conditional UI), from
 * the first focus of the sign-in form: the request waits, unseen, until the person picks
 * one; the button's own request replaces it.
 */
export function usePasskeyAutofill(): () => void {
  const signedIn = useSignedIn();
  const started = useRef(false);
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);
  return () => {
    if (started.current) return;
    started.current = true;
    void loadCeremony().then(async ({ signInWithPasskey, PasskeyCancelledError }) => {
      try {
        await signInWithPasskey({ autofill: true });
        if (live.current) await signedIn();
      } catch (error) {
        if (live.current && !(error instanceof PasskeyCancelledError)) {
          showError(tr(toasts.error), error);
        }
      }
    });
  };
}

export function PasskeySignIn() {
  const { t } = useTranslation();
  const signedIn = useSignedIn();
  const [pending, setPending] = useState(false);

  async function signIn() {
    setPending(true);
    try {
      const { signInWithPasskey } = await loadCeremony();
      await signInWithPasskey();
      await signedIn();
    } catch (error) {
      showError(t(toasts.error), error);
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="mt-4 space-y-4">
      <div className="flex items-center gap-3 text-xs text-muted-foreground" aria-hidden="true">
        <span className="h-px flex-1 bg-border" />
        {t('or')}
        <span className="h-px flex-1 bg-border" />
      </div>
      <Button
        type="button"
        variant="outline"
        size="lg"
        className="w-full"
        onClick={() => void signIn()}
        disabled={pending}
      >
        <FingerprintPattern aria-hidden="true" />
        {pending ? t('Signing in...') : t('Sign in with a passkey')}
      </Button>
    </div>
  );
}
