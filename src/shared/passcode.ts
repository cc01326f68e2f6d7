/**
 * The Friends & Family Passcode: six digits, typed into an input that keeps only digits.
 */
import { key } from './i18n/translate';
import { PASSCODE_LENGTH } from './constants';

export const PASSCODE_FORMAT_MESSAGE = key('Passcode must be exactly 6 digits');
export const INVALID_PASSCODE_MESSAGE = key('Invalid Friends & Family Passcode');

const PASSCODE_PATTERN = new RegExp(`^\\d{${PASSCODE_LENGTH}}$`);

/** What the passcode input keeps of what was typed or pasted: digits only, at most six. */
export function filterPasscodeInput(raw: string): string {
  return raw.replace(/\D/g, '').slice(0, PASSCODE_LENGTH);
}

export function isWellFormedPasscode(value: unknown): value is string {
  return typeof value === 'string' && PASSCODE_PATTERN.test(value);
}
