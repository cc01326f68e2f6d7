/**
 * Outgoing mail's configuration: SMTP_URL and MAIL_FROM read into the mailer's settings, and
 * a wrong value named without ever repeating the SMTP password.
 */
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../test/temp-dirs';
import { ConfigError, loadConfig } from '.';

const tempDir = tempDirs('kin-config-');

describe('mail (SMTP_URL, MAIL_FROM)', () => {
  const base = {
    BASE_URL: 'https://health.example.com',
    MAIL_FROM: 'Kin Health <kin@example.com>',
  };
  const mailOf = (env: Record<string, string>) => loadConfig({ DATA_DIR: tempDir(), ...env }).mail;

  it('is off without SMTP_URL', () => {
    expect(mailOf({})).toBeNull();
  });

  it('reads smtp:// with STARTTLS required on 587, and smtps:// with TLS on 465', () => {
    expect(
      mailOf({ ...base, SMTP_URL: 'smtp://me%40example.com:p%40ss%2Fword@mail.example.com' }),
    ).toEqual({
      host: 'mail.example.com',
      port: 587,
      secure: false,
      starttls: 'required',
      user: 'me@example.com',
      password: 'p@ss/word',
      from: 'Kin Health <kin@example.com>',
    });
    expect(mailOf({ ...base, SMTP_URL: 'smtps://me:pw@mail.example.com' })).toMatchObject({
      port: 465,
      secure: true,
    });
    expect(
      mailOf({ ...base, SMTP_URL: 'smtp://relay.lan:25?starttls=off', MAIL_FROM: 'kin@lan' }),
    ).toMatchObject({ port: 25, starttls: 'off', user: null, password: null });
  });

  it('stops on a wrong value, naming the variable and never repeating the password', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ ...base, SMTP_URL: 'http://me:hunter22@mail.example.com' }, /^SMTP_URL must/],
      [{ ...base, SMTP_URL: 'not a url hunter22' }, /^SMTP_URL must/],
      [{ ...base, SMTP_URL: 'smtp://me:hunter22@mail.example.com?tls=no' }, /^SMTP_URL takes/],
      [{ ...base, SMTP_URL: 'smtps://me:hunter22@h?starttls=off' }, /^SMTP_URL takes/],
      [{ BASE_URL: base.BASE_URL, SMTP_URL: 'smtp://me:hunter22@h' }, /^MAIL_FROM must/],
      [
        { ...base, MAIL_FROM: 'two@a.b, three@c.d', SMTP_URL: 'smtp://me:hunter22@h' },
        /^MAIL_FROM/,
      ],
      [{ MAIL_FROM: base.MAIL_FROM, SMTP_URL: 'smtp://me:hunter22@h' }, /^BASE_URL must be set/],
    ];
    for (const [env, message] of cases) {
      let error: unknown;
      try {
        mailOf(env);
      } catch (caught) {
        error = caught;
      }
      expect(error, JSON.stringify(env)).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain('hunter22');
    }
  });
});
