/**
 * The browser tests' single sign-on: scripts/serve-e2e.ts runs a test OpenID Provider
 * (src/server/test/openid-provider.ts) at PORT+5 with the accounts below, and a server with
 * single sign-on set up against it at PORT+3 (SQLite: the PostgreSQL browser project does not
 * run the sign-in specs). The other servers have no single sign-on, so their Sign In tab is
 * unchanged.
 */
import type { TestIdentity } from '../src/server/test/openid-provider';
import { test } from './fixtures';

export const SSO_NAME = 'Family Login';

/** The provider's accounts: each spec run signs in as a fresh one of these (by its email). */
export const SSO_TEST_IDENTITIES: TestIdentity[] = ['phone'].map((project) => ({
  sub: `e2e-${project}`,
  email: `sso-${project}@example.test`,
  emailVerified: true,
  name: 'Ada Lovelace',
}));

export const singleSignOnPort = (port: number) => port + 3;
export const openIdProviderPort = (port: number) => port + 5;

const e2ePort = Number(process.env.E2E_PORT ?? 4310);

/** The server with single sign-on. */
export const singleSignOnOrigin = () => `http://localhost:${singleSignOnPort(e2ePort)}`;

/** Called in a describe: its tests run on the phone projects only. */
export function onPhoneOnly() {
  test.beforeEach(() => {
    test.skip(!test.info().project.name.startsWith('phone'), 'single sign-on runs on phone');
  });
}

/** The provider account of the running project. */
export function ssoIdentityFor(projectName: string): TestIdentity {
  const found = SSO_TEST_IDENTITIES.find((identity) => identity.sub === `e2e-${projectName}`);
  if (!found) throw new Error(`no single sign-on account for ${projectName}`);
  return found;
}
