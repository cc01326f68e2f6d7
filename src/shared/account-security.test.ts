import { describe, expect, it } from 'vitest';
import {
  AUTHENTICATION_CODE_MESSAGE,
  describeAuditDetail,
  verifyAuthenticationCodeSchema,
  verifyBackupCodeSchema,
} from './account-security';
import { filterAuthenticationCodeInput } from './authentication-code';

describe('the authentication code', () => {
  it('keeps six digits of what was typed or pasted', () => {
    expect(filterAuthenticationCodeInput('123 456')).toBe('123456');
    expect(filterAuthenticationCodeInput('12-34-56-78')).toBe('123456');
    expect(filterAuthenticationCodeInput('abc')).toBe('');
  });

  it.each(['12345', '1234567', 'abcdef', '', 123456])('refuses %j, naming the field', (code) => {
    const result = verifyAuthenticationCodeSchema.safeParse({ code });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({
      path: ['code'],
      message: AUTHENTICATION_CODE_MESSAGE,
    });
  });

  it('accepts six digits', () => {
    expect(verifyAuthenticationCodeSchema.parse({ code: '012345' })).toEqual({ code: '012345' });
  });
});

describe('the backup code', () => {
  it('is required, trimmed and taken in any case', () => {
    expect(verifyBackupCodeSchema.safeParse({ code: '  ' }).success).toBe(false);
    expect(verifyBackupCodeSchema.parse({ code: ' abcde-12345 ' })).toEqual({
      code: 'ABCDE-12345',
    });
  });
});

describe('describeAuditDetail', () => {
  it('words the sign-in methods and failures, and passes a device through', () => {
    expect(describeAuditDetail({ detail: 'wrong_passcode' })).toBe(
      'Wrong Friends & Family Passcode',
    );
    expect(describeAuditDetail({ detail: 'authenticator_app' })).toBe('Authenticator app');
    expect(describeAuditDetail({ detail: 'Firefox on Windows' })).toBe('Firefox on Windows');
    expect(describeAuditDetail({ detail: null })).toBeNull();
  });

  it('does not mistake inherited names for details', () => {
    expect(describeAuditDetail({ detail: 'toString' })).toBe('toString');
  });
});
