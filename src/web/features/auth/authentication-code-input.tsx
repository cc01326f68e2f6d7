/** The 6-digit code of an authenticator app: keeps digits only, offers the phone's autofill. */
import type { ComponentProps } from 'react';
import {
  AUTHENTICATION_CODE_LENGTH,
  filterAuthenticationCodeInput,
} from '../../../shared/security';
import { Input } from '../../components/ui/input';

export function AuthenticationCodeInput({
  value,
  onValueChange,
  ...props
}: Omit<ComponentProps<'input'>, 'value' | 'onChange' | 'type'> & {
  value: string;
  onValueChange: (value: string) => void;
}) {
  return (
    <Input
      type="text"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={AUTHENTICATION_CODE_LENGTH}
      placeholder="6 digits"
      value={value}
      onChange={(event) => onValueChange(filterAuthenticationCodeInput(event.target.value))}
      className="tracking-[0.4em]"
      {...props}
    />
  );
}
