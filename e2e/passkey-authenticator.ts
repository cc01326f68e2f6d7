/**
 * A virtual passkey authenticator for the browser tests (the DevTools Protocol's WebAuthn
 * domain): a platform authenticator that keeps discoverable credentials and verifies the
 * person, as a phone's or a laptop's does.
 */
import type { Page } from '@playwright/test';

export async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const credentials = async () =>
    (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
  return { credentials };
}
