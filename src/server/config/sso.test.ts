/**
 * Single sign-on's configuration (OIDC_*): off unless the issuer is set, its defaults, and a
 * message naming the variable that is wrong or missing.
 */
import { describe, expect, it } from 'vitest';
import { tempDirs } from '../test/temp-dirs';
import { ConfigError, loadConfig } from '.';

const tempDir = tempDirs('kin-config-');

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
