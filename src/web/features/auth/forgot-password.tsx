/**
 * 'Forgot password?' on the Sign In tab (CONTRACT.md §5 'Account recovery'): the reset
 * request (reset-request.tsx) in place of the sign-in form, and 'Back to Sign In'.
 */
import { Suspense, useState, type ReactNode } from 'react';
import { lazyPart } from '../../lib/when-reachable';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/button';
import { Loading } from '../../components/ui/feedback';

const ResetByEmail = lazyPart(() => import('./reset-request'));

/** The sign-in form with 'Forgot password?' under it, or the reset request in its place. */
export function ForgotPassword({ email, children }: { email: string; children: ReactNode }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  if (!open) {
    return (
      <>
        {children}
        <div className="mt-4 text-center">
          <Button type="button" variant="link" onClick={() => setOpen(true)}>
            {t('Forgot password?')}
          </Button>
        </div>
      </>
    );
  }
  return (
    <div className="space-y-4">
      <Suspense fallback={<Loading />}>
        <ResetByEmail email={email} />
      </Suspense>
      <div className="text-center">
        <Button type="button" variant="link" onClick={() => setOpen(false)}>
          {t('Back to Sign In')}
        </Button>
      </div>
    </div>
  );
}
