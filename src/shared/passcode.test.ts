import { describe, expect, it } from 'vitest';
import { filterPasscodeInput, isWellFormedPasscode } from './passcode';

describe('filterPasscodeInput', () => {
  it('keeps digits only', () => {
    expect(filterPasscodeInput('12a3-4 5')).toBe('12345');
  });
  it('stops at six digits', () => {
    expect(filterPasscodeInput('1234567890')).toBe('123456');
  });
  it('leaves nothing of no digits', () => {
    expect(filterPasscodeInput('abc')).toBe('');
  });
  it('keeps non-ASCII digits out', () => {
    expect(filterPasscodeInput('١٢٣456')).toBe('456');
  });
});

describe('isWellFormedPasscode', () => {
  it.each(['000000', '123456', '999999'])('accepts %s', (value) => {
    expect(isWellFormedPasscode(value)).toBe(true);
  });
  it.each(['12345', '1234567', '12345a', ' 123456', '', 123456, null])('refuses %j', (value) => {
    expect(isWellFormedPasscode(value)).toBe(false);
  });
});
