/**
 * Configuration and what the server keeps in DATA_DIR: secrets made once with owner-only
 * access, the generated passcode printed on the first start only, and every variable read
 * with a message that names it when it is wrong.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';
import { startServerProcess, stopServerProcess } from './test/server-process';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function tempDir() {
  const dir = mkdtempSync(path.join(tmpdir(), 'kin-config-'));
  dirs.push(dir);
  return dir;
}
const modeOf = (file: string) => statSync(file).mode & 0o777;

describe('the Friends & Family Passcode', () => {
  it('is generated once, kept owner-only, and counts as generated on that start only', () => {
    const dataDir = tempDir();
    const first = loadConfig({ DATA_DIR: dataDir });
    expect(first.familyPasscode).toMatch(/^\d{6}$/);
    expect(first.familyPasscodeGenerated).toBe(true);
    expect(first.familyPasscodeFrom).toBe('file');
    expect(modeOf(path.join(dataDir, 'family-passcode'))).toBe(0o600);
    const second = loadConfig({ DATA_DIR: dataDir });
    expect(second.familyPasscode).toBe(first.familyPasscode);
    expect(second.familyPasscodeGenerated).toBe(false);
  });

  it('comes from FAMILY_PASSCODE when it is set, with no file made', () => {
    const dataDir = tempDir();
    const config = loadConfig({ DATA_DIR: dataDir, FAMILY_PASSCODE: '042917' });
    expect(config).toMatchObject({
      familyPasscode: '042917',
      familyPasscodeFrom: 'FAMILY_PASSCODE',
      familyPasscodeGenerated: false,
    });
    expect(existsSync(path.join(dataDir, 'family-passcode'))).toBe(false);
  });

  it('is printed by the server on its first start only; later starts say where it is kept', async () => {
    const dataDir = tempDir();
    const env = { DATA_DIR: dataDir, FAMILY_PASSCODE: '', DATABASE_URL: '' };
    const first = await startServerProcess(env);
    await stopServerProcess(first);
    const passcode = /Friends & Family Passcode: (\d{6})/.exec(first.output())?.[1];
    expect(passcode).toMatch(/^\d{6}$/);

    const second = await startServerProcess(env);
    await stopServerProcess(second);
    expect(second.output()).not.toContain(passcode);
    expect(second.output()).toContain(path.join(dataDir, 'family-passcode'));
  }, 60_000);
});

describe('DATA_DIR', () => {
  it('is created owner-only when the server makes it', () => {
    const dataDir = path.join(tempDir(), 'new', 'data');
    loadConfig({ DATA_DIR: dataDir, FAMILY_PASSCODE: '123456' });
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(path.join(dataDir, 'auth-secret'))).toBe(0o600);
  });

  it('keeps the secrets it makes owner-only even in a directory others can read', () => {
    const dataDir = path.join(tempDir(), 'shared');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o755);
    loadConfig({ DATA_DIR: dataDir });
    expect(modeOf(path.join(dataDir, 'auth-secret'))).toBe(0o600);
    expect(modeOf(path.join(dataDir, 'family-passcode'))).toBe(0o600);
  });
});

describe('the VAPID keys reminders are signed with', () => {
  it('are made once, kept owner-only in DATA_DIR, and the same on the next start', () => {
    const dataDir = tempDir();
    const first = loadConfig({ DATA_DIR: dataDir, FAMILY_PASSCODE: '123456' });
    expect(first.vapid.publicKey).toMatch(/^[\w-]{87}$/);
    expect(first.vapid.privateKey).toMatch(/^[\w-]{43}$/);
    expect(modeOf(path.join(dataDir, 'vapid-keys'))).toBe(0o600);
    const second = loadConfig({ DATA_DIR: dataDir, FAMILY_PASSCODE: '123456' });
    expect(second.vapid).toEqual(first.vapid);
  });

  it('come from VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY together, with no file made', () => {
    const dataDir = tempDir();
    const keys = loadConfig({ DATA_DIR: tempDir(), FAMILY_PASSCODE: '123456' }).vapid;
    const env = {
      DATA_DIR: dataDir,
      FAMILY_PASSCODE: '123456',
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      VAPID_SUBJECT: 'mailto:admin@example.org',
    };
    expect(loadConfig(env).vapid).toEqual({ ...keys, subject: 'mailto:admin@example.org' });
    expect(existsSync(path.join(dataDir, 'vapid-keys'))).toBe(false);
    expect(() => loadConfig({ ...env, VAPID_PRIVATE_KEY: '' })).toThrow(/VAPID_PRIVATE_KEY/);
    expect(() => loadConfig({ ...env, VAPID_SUBJECT: 'admin' })).toThrow(/VAPID_SUBJECT/);
  });
});

describe('variables', () => {
  it.each([
    ['PORT', 'eighty'],
    ['AUTH_RATE_LIMIT', 'lots'],
    ['PASSCODE_GUESS_LIMIT', 'lots'],
    ['PASSCODE_GUESS_LIMIT', '50/0'],
    ['SESSION_MAX_AGE_DAYS', '0'],
    ['SESSION_MAX_AGE_DAYS', 'forever'],
    ['AUDIT_RETENTION_DAYS', '-1'],
    ['AUDIT_RETENTION_DAYS', '3.5'],
    ['NOTIFY_ALLOWED_HOSTS', 'http://ntfy.lan'],
    ['NOTIFY_ALLOWED_HOSTS', 'ntfy.lan:8080'],
    ['NOTIFY_ALLOWED_HOSTS', 'ntfy.lan,,10.0.0.2'],
  ])('%s=%s stops the server with a message naming it', (name, value) => {
    const dataDir = tempDir();
    expect(() =>
      loadConfig({ DATA_DIR: dataDir, FAMILY_PASSCODE: '123456', [name]: value }),
    ).toThrow(ConfigError);
    expect(() =>
      loadConfig({ DATA_DIR: dataDir, FAMILY_PASSCODE: '123456', [name]: value }),
    ).toThrow(new RegExp(name));
  });

  it('limit wrong passcodes to 50 an hour on the whole server unless told otherwise', () => {
    const base = { DATA_DIR: tempDir(), FAMILY_PASSCODE: '123456' };
    expect(loadConfig(base).passcodeGuessLimit).toEqual({ max: 50, windowSeconds: 3600 });
    expect(loadConfig({ ...base, PASSCODE_GUESS_LIMIT: '20/600' }).passcodeGuessLimit).toEqual({
      max: 20,
      windowSeconds: 600,
    });
    expect(loadConfig({ ...base, PASSCODE_GUESS_LIMIT: 'off' }).passcodeGuessLimit).toBeNull();
  });

  it('have defaults: sessions end 30 days after sign-in, audit rows are kept a year', () => {
    const config = loadConfig({ DATA_DIR: tempDir(), FAMILY_PASSCODE: '123456' });
    expect(config.sessionMaxAgeDays).toBe(30);
    expect(config.auditRetentionDays).toBe(365);
  });
});

describe('hosts notification channels may reach (NOTIFY_ALLOWED_HOSTS)', () => {
  it('are none unless listed; names and addresses, as a URL writes its host', () => {
    const base = { DATA_DIR: tempDir(), FAMILY_PASSCODE: '123456' };
    expect(loadConfig(base).notifyAllowedHosts).toEqual([]);
    expect(
      loadConfig({ ...base, NOTIFY_ALLOWED_HOSTS: ' NTFY.lan., 192.168.1.20,[fd00::5],ntfy.lan' })
        .notifyAllowedHosts,
    ).toEqual(['ntfy.lan', '192.168.1.20', 'fd00::5']);
  });
});

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

describe('passkeys (PASSKEYS, BASE_URL)', () => {
  const passkeysOf = (env: Record<string, string>) =>
    loadConfig({ DATA_DIR: tempDir(), FAMILY_PASSCODE: '123456', ...env }).passkeys;

  it('are on by default, with or without BASE_URL, where a browser allows them', () => {
    expect(passkeysOf({})).toBe(true);
    expect(passkeysOf({ BASE_URL: 'https://health.example.com' })).toBe(true);
    expect(passkeysOf({ BASE_URL: 'http://localhost:3000' })).toBe(true);
    expect(passkeysOf({ BASE_URL: 'http://kin.localhost:3000' })).toBe(true);
    expect(passkeysOf({ PASSKEYS: 'off', BASE_URL: 'http://192.168.1.20:3000' })).toBe(false);
  });

  it('stop the start where no browser would take a passkey, saying why and how to go on', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [
        { BASE_URL: 'http://health.lan:3000' },
        /^BASE_URL is plain http on health\.lan;.*PASSKEYS=off/,
      ],
      [{ BASE_URL: 'https://192.168.1.20' }, /^BASE_URL names the server by an IP address/],
      [{ BASE_URL: 'http://[::1]:3000' }, /IP address/],
      [{ PASSKEYS: 'maybe' }, /^PASSKEYS must be "on" or "off"/],
    ];
    for (const [env, message] of cases) {
      expect(() => passkeysOf(env), JSON.stringify(env)).toThrow(ConfigError);
      expect(() => passkeysOf(env)).toThrow(message);
    }
  });
});

describe('single sign-on (OIDC_*)', () => {
  const base = () => ({ DATA_DIR: tempDir() });
  const sso = {
    OIDC_ISSUER: 'https://auth.example.com/application/o/kin/',
    OIDC_CLIENT_ID: 'kin',
    OIDC_CLIENT_SECRET: 'a-client-secret',
  };

  it('is off without OIDC_ISSUER, and takes the defaults with the three set', () => {
    expect(loadConfig(base()).singleSignOn).toBeNull();
    expect(loadConfig({ ...base(), ...sso }).singleSignOn).toEqual({
      issuer: 'https://auth.example.com/application/o/kin',
      clientId: 'kin',
      clientSecret: 'a-client-secret',
      name: 'Single Sign-On',
      trusted: false,
    });
    expect(
      loadConfig({ ...base(), ...sso, OIDC_NAME: 'Authentik', OIDC_TRUSTED: 'true' }).singleSignOn,
    ).toMatchObject({ name: 'Authentik', trusted: true });
  });

  it('names the variable that is wrong or missing', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ OIDC_CLIENT_ID: 'kin' }, /^OIDC_ISSUER must be set when OIDC_CLIENT_ID is/],
      [{ ...sso, OIDC_ISSUER: 'auth.example.com' }, /^OIDC_ISSUER must be the identity provider/],
      [{ ...sso, OIDC_CLIENT_ID: '' }, /^OIDC_CLIENT_ID must be set/],
      [{ ...sso, OIDC_CLIENT_SECRET: '' }, /^OIDC_CLIENT_SECRET must be set/],
      [{ ...sso, OIDC_TRUSTED: 'yes' }, /^OIDC_TRUSTED must be true or false/],
      [{ ...sso, OIDC_NAME: 'x'.repeat(41) }, /^OIDC_NAME must be at most 40 characters/],
    ];
    for (const [env, message] of cases) {
      expect(() => loadConfig({ ...base(), ...env }), JSON.stringify(env)).toThrow(ConfigError);
      expect(() => loadConfig({ ...base(), ...env })).toThrow(message);
    }
  });
});
