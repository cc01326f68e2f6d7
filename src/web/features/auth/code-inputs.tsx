/**
 * The two codes a person types as digits, each with its length, what it keeps of what is
 * typed or pasted, and whether the phone may fill it in: the Friends & Family Passcode (the
 * family's shared passcode, not a code sent to this phone: no one-time-code autofill) and an
 * authenticator app's code (which a phone may offer).
 */
import type { ComponentProps } from 'react';
import {
  AUTHENTICATION_CODE_LENGTH,
  filterAuthenticationCodeInput,
} from '../../../shared/authentication-code';
import { PASSCODE_LENGTH } from '../../../shared/constants';
import { filterPasscodeInput } from '../../../shared/passcode';
import { DigitsInput } from '../../components/ui/digits-input';

type DigitsInputProps = ComponentProps<typeof DigitsInput>;
type Fixed = Pick<DigitsInputProps, 'length' | 'filter' | 'autoComplete'>;

/** A code's input: DigitsInput with the code's own length, filter and autofill. */
const codeInput = (fixed: Fixed) =>
  function CodeInput(props: Omit<DigitsInputProps, keyof Fixed>) {
    return <DigitsInput {...fixed} {...props} />;
  };

export const PasscodeInput = codeInput({
  length: PASSCODE_LENGTH,
  filter: filterPasscodeInput,
  autoComplete: 'off',
});

export const AuthenticationCodeInput = codeInput({
  length: AUTHENTICATION_CODE_LENGTH,
  filter: filterAuthenticationCodeInput,
  autoComplete: 'one-time-code',
});
