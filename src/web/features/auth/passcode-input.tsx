/** The Friends & Family Passcode input: keeps digits only, at most six. */
import type { ComponentProps } from 'react';
import { filterPasscodeInput } from '../../../shared/passcode';
import { Input } from '../../components/ui/input';

export function PasscodeInput({
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
      maxLength={6}
      value={value}
      onChange={(event) => onValueChange(filterPasscodeInput(event.target.value))}
      className="tracking-[0.4em]"
      {...props}
    />
  );
}
