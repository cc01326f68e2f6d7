/**
 * What turning two-factor sign-in on does, apart from how it looks: its steps (the
 * password, the app's scan and code, then the backup codes), none of which outlives the
 * dialog, the password that starts the enrolment and the code that confirms it.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { verifyAuthenticationCodeSchema } from '../../../shared/account-security';
import { toasts } from '../../../shared/messages';
import { showError } from '../../lib/toast';
import { parseOrShowError } from '../../lib/validate';
import type { TwoFactorEnrolment } from './security-api';
import { useConfirmTwoFactor, useEnableTwoFactor } from './security-queries';

type SetupStep =
  | { step: 'password' }
  | { step: 'scan'; enrolment: TwoFactorEnrolment }
  | { step: 'backup-codes'; backupCodes: string[] };

export function useTwoFactorSetup(open: boolean) {
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

  async function startEnrolment(password: string) {
    const enrolment = await enable.mutateAsync(password);
    setState({ step: 'scan', enrolment });
  }

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

  return { state, code, setCode, enable, confirm, startEnrolment, submitCode };
}
