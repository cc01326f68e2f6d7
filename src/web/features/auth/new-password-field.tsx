/**
 * A password being chosen (a reset, a change): labelled, with the sign-up rules' hint under
 * it, and the browser told to suggest a new one.
 */
import { useTranslation } from 'react-i18next';
import { PASSWORD_MIN_LENGTH } from '../../../shared/constants';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';

export function NewPasswordField({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label?: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  const hint = `${id}-hint`;
  return (
    <FormField id={id} label={label ?? t('New Password')}>
      <Input
        id={id}
        type="password"
        autoComplete="new-password"
        required
        minLength={PASSWORD_MIN_LENGTH}
        aria-describedby={hint}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      <p id={hint} className="text-xs text-muted-foreground">
        {t('At least {count} characters.', { count: PASSWORD_MIN_LENGTH })}
      </p>
    </FormField>
  );
}
