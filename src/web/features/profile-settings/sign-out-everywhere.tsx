/**
 * Profile Settings' 'Sign out everywhere and remove passkeys' (decision 0048): for when
 * someone else may have had the account. After a confirm with a fresh proof, every session
 * ends (this one too) and every passkey is removed; the password and the records stay.
 *
 * The section is headed by those words; its button is 'End All Sessions and Passkeys', as
 * the sessions' own is 'End All Other Sessions': the one button named 'Sign Out' on the
 * page stays the only one whose name holds those words.
 */
import { useMutation } from '@tanstack/react-query';
import { ShieldOff } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { key } from '../../../shared/i18n/translate';
import { toasts } from '../../../shared/messages';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { profileApi } from '../../lib/api';
import { showSuccess } from '../../lib/toast';
import { useForgetUser } from '../auth/session';
import { FreshProofDialog } from '../shell/fresh-proof-dialog';

export const SIGN_OUT_EVERYWHERE_HEADING = key('Sign out everywhere and remove passkeys');
export const SIGN_OUT_EVERYWHERE_BUTTON = key('End All Sessions and Passkeys');

export function SignOutEverywhere() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const forgetUser = useForgetUser();
  const signOut = useMutation({ mutationFn: profileApi.signOutEverywhere });

  return (
    <Card className="p-5">
      <section aria-labelledby="sign-out-everywhere-heading" className="space-y-4">
        <div>
          <h2 id="sign-out-everywhere-heading" className="font-semibold">
            {t(SIGN_OUT_EVERYWHERE_HEADING)}
          </h2>
          <p className="text-sm text-muted-foreground">
            {t(
              'If someone else may have used your account: every device is signed out, this one too, and every passkey is removed. Your password and your records stay.',
            )}
          </p>
        </div>
        <Button variant="outline" className="w-full sm:w-auto" onClick={() => setOpen(true)}>
          <ShieldOff aria-hidden="true" />
          {t(SIGN_OUT_EVERYWHERE_BUTTON)}
        </Button>
      </section>
      <FreshProofDialog
        open={open}
        onOpenChange={setOpen}
        title={t('End every session and remove every passkey?')}
        description={t(
          'Every device signed in to your account is signed out, this one too, and every passkey is removed. You sign in again with your password.',
        )}
        confirmLabel={t('End All Sessions')}
        pendingLabel={t('Ending...')}
        errorTitle={t(toasts.error)}
        pending={signOut.isPending}
        onProof={async (proof) => {
          await signOut.mutateAsync(proof);
          showSuccess({
            title: t('Signed out everywhere'),
            description: t('Every device is signed out and every passkey removed.'),
          });
          await forgetUser();
          navigate('/auth', { replace: true });
        }}
      />
    </Card>
  );
}
