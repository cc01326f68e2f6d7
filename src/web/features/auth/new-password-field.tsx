/**
 * A password being chosen (a reset, a change): labelled, with the sign-up rules' hint under
 * it, and the browser told to suggest a new one.
 */
import { PASSWORD_MIN_LENGTH } from '../../../shared/constants';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';

export function NewPasswordField({
  id,
  label = 'New Password',
  value,
  onChange,
}: {
  id: string;
  label?: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const hint = `${id}-hint`;
  return (
    <FormField id={id} label={label}>
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
        At least {PASSWORD_MIN_LENGTH} characters.
      </p>
    </FormField>
  );
}
