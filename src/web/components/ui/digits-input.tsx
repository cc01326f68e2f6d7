/**
 * A short code typed as digits (the Friends & Family Passcode, an authenticator app's
 * code): a numeric keypad on phones, and only what `filter` keeps of what is typed or
 * pasted, at most `length` digits. The filter, not the browser's maxlength, sets the limit:
 * maxlength would cut '123 456' to '123 45' before the separator could be taken out.
 */
import type { ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';
import { Input } from './input';

export function DigitsInput({
  length,
  filter,
  autoComplete,
  value,
  onValueChange,
  ...props
}: Omit<
  ComponentProps<typeof Input>,
  'value' | 'onChange' | 'type' | 'maxLength' | 'autoComplete'
> & {
  length: number;
  filter: (typed: string) => string;
  /** 'one-time-code' where the phone may offer a code it received; 'off' otherwise. */
  autoComplete: 'one-time-code' | 'off';
  value: string;
  onValueChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <Input
      type="text"
      inputMode="numeric"
      autoComplete={autoComplete}
      placeholder={t('{count} digits', { count: length })}
      value={value}
      onChange={(event) => onValueChange(filter(event.target.value))}
      className="tracking-[0.4em] placeholder:tracking-normal"
      {...props}
    />
  );
}
