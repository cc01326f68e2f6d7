/**
 * Configuration of the server itself and what it keeps in DATA_DIR: secrets made once with
 * owner-only access, the generated passcode printed on the first start only, and every
 * variable read with a message that names it when it is wrong.
 */
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServerProcess, stopServerProcess } from '../test/server-process';
import { modeOf, tempDirs } from '../test/temp-dirs';
import { KEEP_ALIVE_MS } from '../server';
import { ConfigError, loadConfig } from '.';

const tempDir = tempDirs('kin-config-');

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
    // A kept-alive connection outlives a proxy's own idle time (server.ts KEEP_ALIVE_MS).
    const health = await fetch(`${first.url}/api/health`);
    expect(health.headers.get('keep-alive')).toBe(`timeout=${KEEP_ALIVE_MS / 1000}`);
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
