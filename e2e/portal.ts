/**
 * The browser tests' patient portal: scripts/serve-e2e.ts runs a SMART on FHIR test server
 * (src/server/test/smart-server.ts) at PORT+7 with Mia Rivera's records (username 'mia'),
 * and a server offering it as a portal to connect to at PORT+6 (SQLite).
 */
import { CONNECTIONS_CALLBACK_PATH } from '../src/shared/connections';

/** The portal's name, as `SMART_PROVIDERS` names it and the 'Health System' choice shows it. */
export const PORTAL_NAME = 'Riverside Health';

/** What Mia types on the portal's sign-in page. */
export const PORTAL_USERNAME = 'mia';

export const connectionsPort = (port: number) => port + 6;
export const portalServerPort = (port: number) => port + 7;

const e2ePort = Number(process.env.E2E_PORT ?? 4310);

/** The server with the portal to connect to. */
export const connectionsOrigin = () => `http://localhost:${connectionsPort(e2ePort)}`;

/** The redirect URI the portal has for the server at `origin`. */
export const portalRedirectUri = (origin: string) => `${origin}${CONNECTIONS_CALLBACK_PATH}`;

/** The portal itself (the tests' SMART server). */
export const portalOrigin = () => `http://127.0.0.1:${portalServerPort(e2ePort)}`;

/** A new lab result at the portal for Mia, as her health system would add one. */
export const newLabResultAtPortal = () =>
  fetch(`${portalOrigin()}/controls/new-lab-result?username=${PORTAL_USERNAME}`, {
    method: 'POST',
  });

/** The new lab result's name (smart-portal-records.ts `newLabResult`). */
export const NEW_LAB_RESULT = 'Hemoglobin [Mass/volume] in Blood';
