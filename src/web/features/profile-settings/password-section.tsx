/**
 * Profile Settings, 'Password': the current password and a new one (the sign-up rules).
 * Every other device is signed out; this one stays signed in.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PASSWORD_CHANGED_MESSAGE, passwordChangeSchema } from '../../../shared/account-recovery';
import { toasts } from '../../../shared/messages';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { showError, showSuccess } from '../../lib/toast';
import { parseOrShowError } from '../../lib/validate';
import { useChangePassword } from './security-queries';
import { NewPasswordField } from '../auth/new-password-field';

const EMPTY = { currentPassword: '', newPassword: '' };

export function PasswordSection() {
  const { t } = useTranslation();
  const [values, setValues] = useState(EMPTY);
  const change = useChangePassword();
  const update = (field: keyof typeof EMPTY, value: string) =>
    setValues((current) => ({ ...current, [field]: value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    const data = parseOrShowError(passwordChangeSchema, values, t(toasts.error));
    if (!data) return;
    change.mutate(data, {
      onSuccess: () => {
        setValues(EMPTY);
        showSuccess(t(PASSWORD_CHANGED_MESSAGE));
      },
      onError: (error) => showError(t(toasts.error), error),
    });
  }

  return (
    <Card className="p-5">
      <h2 className="font-semibold">{t('Password')}</h2>
      <p className="mb-4 text-sm text-muted-foreground">
        {t('Changing it signs your other devices out.')}
      </p>
      <form onSubmit={submit} className="space-y-4" aria-label={t('Password')} noValidate>
        <FormField id="password-current" label={t('Current Password')}>
          <Input
            id="password-current"
            type="password"
            autoComplete="current-password"
            required
            value={values.currentPassword}
            onChange={(e) => update('currentPassword', e.target.value)}
          />
        </FormField>
        <NewPasswordField
          id="password-new"
          value={values.newPassword}
          onChange={(value) => update('newPassword', value)}
        />
        <Button type="submit" className="w-full sm:w-auto" disabled={change.isPending}>
          {change.isPending ? t('Saving...') : t('Change Password')}
        </Button>
      </form>
    </Card>
  );
}
