/**
 * Patient portals (CONTRACT §6 'Connections'): the SMART on FHIR portals the operator allows
 * (`SMART_PROVIDERS`), and a family's connections to them, each for one person. The API:
 *
 * - `GET /api/connections` answers {@link ConnectionsAnswer}: the portals offered, and the
 *   account's connections.
 * - `POST /api/connections` with {@link ConnectRequest} answers {@link ConnectStarted}: the
 *   portal's sign-in address the browser goes to. The portal sends the browser back to
 *   `GET /api/connections/callback`, which redirects to {@link CONNECTIONS_PAGE} with
 *   `?connected={id}` or `?connection_error={sentence}`; the first sync starts there.
 * - `POST /api/connections/{id}/sync` ('Sync Now') answers the connection, `syncing` (202):
 *   the sync runs on the server, the list says when it is done.
 * - `POST /api/connections/{id}/reconnect` answers {@link ConnectStarted}, as connecting does.
 * - `DELETE /api/connections/{id}` ('Disconnect') revokes the portal's token when the portal
 *   offers revocation, forgets it here, and keeps the records (204).
 */
import { tr } from './i18n/translate';

/** Where the callback sends the browser back to: Profile Settings. */
export const CONNECTIONS_PAGE = '/profile-settings';

/** The redirect URI a portal is registered with: `{BASE_URL}` followed by this. */
export const CONNECTIONS_CALLBACK_PATH = '/api/connections/callback';

/** A portal the operator allows, as the 'Health System' choice shows it. */
export interface PortalOption {
  /** The provider's name, as in `SMART_PROVIDERS`: unique, and the connection's key to it. */
  name: string;
}

export const CONNECTION_STATUSES = ['connected', 'syncing', 'needs-sign-in', 'failed'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

export interface Connection {
  id: string;
  /** The provider's name ('Health System'). */
  portal: string;
  /** The person the portal's patient is: this server's person id, and their name. */
  person: { id: string; name: string };
  status: ConnectionStatus;
  /** UTC timestamp of the last sync that finished well; null before the first. */
  last_synced_at: string | null;
  /** What the last sync did: 'Imported 12 records', or 'Nothing new'. */
  last_sync_summary: string | null;
  /**
   * Why the last sync did not finish, in words: '{portal} asked to sign in again' (then
   * 'Reconnect' is offered), 'The portal refused: {reason}', 'The portal did not answer'.
   */
  problem: string | null;
  created_at: string;
}

export interface ConnectionsAnswer {
  /** Empty when `SMART_PROVIDERS` is not set: the section is not shown then. */
  portals: PortalOption[];
  connections: Connection[];
}

export interface ConnectRequest {
  /** A {@link PortalOption.name}. */
  portal: string;
  /** A person of the account: the account holder's person id or a family member's. */
  person_id: string;
}

export interface ConnectStarted {
  /** The portal's sign-in page, to send the browser to. */
  authorize_url: string;
}

/** '{health system} for {person}', as each connection is listed. */
export const connectionTitle = (connection: Pick<Connection, 'portal' | 'person'>) =>
  tr('{portal} for {name}', { portal: connection.portal, name: connection.person.name });

/** The problem a sync says when the portal wants its patient to sign in again. */
export const signInAgain = (portal: string) => tr('{portal} asked to sign in again', { portal });
