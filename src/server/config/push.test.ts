/**
 * The VAPID keys reminders are signed with (made once, kept owner-only in DATA_DIR, or given
 * together) and the hosts notification channels may reach.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { modeOf, tempDirs } from '../test/temp-dirs';
import { loadConfig } from '.';

const tempDir = tempDirs('kin-config-');

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
