/**
 * Single sign-on on the Sign In tab (CONTRACT.md §5 'Passkeys and single sign-on'): 'Sign in
 * with {OIDC_NAME}' when the server has an identity provider set up; back from it, the one
 * more step a first sign-in may need (the Friends & Family Passcode for a new account, the
 * account's password to link an existing one), or why it was refused.
 */
import { useQuery } from '@tanstack/react-query';
import { KeySquare } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { toasts } from '../../../shared/messages';
import {
  singleSignOnRefusal,
  SSO_PASSCODE_CHANGED,
  SSO_PASSCODE_NEEDED,
  SSO_PASSWORD_NEEDED,
} from '../../../shared/single-sign-on';
import { Button } from '../../components/ui/button';
import { authApi } from '../../lib/auth-api';
import { showError } from '../../lib/toast';

/** The identity provider's name, when single sign-on is set up (null: it is not). */
export function useSingleSignOnName(): string | null {
  const options = useQuery({
    queryKey: ['sign-in-options'],
    queryFn: authApi.signInOptions,
    staleTime: Infinity,
  });
  return options.data?.singleSignOn?.name ?? null;
}

export function SingleSignOnButton({ name }: { name: string }) {
  const { t } = useTranslation();
  const [pending, setPending] = useState(false);
  async function start() {
    setPending(true);
    try {
      const { url } = await authApi.startSingleSignOn();
      window.location.assign(url);
    } catch (error) {
      setPending(false);
      showError(t(toasts.error), error);
    }
  }
  return (
    <div className="mt-5 space-y-4">
      <div className="flex items-center gap-3 text-xs text-muted-foreground">
        <span className="h-px flex-1 bg-border" />
        {t('or')}
        <span className="h-px flex-1 bg-border" />
      </div>
      <Button
        type="button"
        variant="outline"
        size="lg"
        className="w-full"
        disabled={pending}
        onClick={() => void start()}
      >
        <KeySquare aria-hidden="true" />
        {t('Sign in with {name}', { name })}
      </Button>
    </div>
  );
}

/** What the provider's return to /auth asks for: a step, a refusal, or nothing. */
export function useSingleSignOnReturn() {
  const [params, setParams] = useSearchParams();
  const error = params.get('error');
  const clear = () => setParams({}, { replace: true });
  if (
    error === SSO_PASSCODE_NEEDED ||
    error === SSO_PASSWORD_NEEDED ||
    error === SSO_PASSCODE_CHANGED
  ) {
    return { step: error, refusal: null, clear } as const;
  }
  return { step: null, refusal: error, clear } as const;
}

export function SingleSignOnRefusal({ error, name }: { error: string; name: string }) {
  return (
    <p role="alert" className="mb-5 rounded-2xl bg-destructive/10 p-4 text-sm text-destructive">
      {singleSignOnRefusal(error, name)}
    </p>
  );
}
