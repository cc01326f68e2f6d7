/** The per-request values the API's middleware hands to its routes. */
import type { Access } from '../access/scope';
import type { Database } from '../db/database';

/** The signed-in user, as a request knows them: what to read their rows by. */
export interface SessionUser {
  id: string;
  /**
   * Whether any grant names the user's email (ended or not), when the session check read
   * it: false means their access is their own rows, with no need to look grants up.
   */
  hasGrants?: boolean;
}

export interface AppEnv {
  Variables: {
    user: SessionUser;
    sessionId: string;
    /**
     * What the user may read and write: their own rows and the persons shared with them
     * today, read from the database on first use in each request (so a removed grant is
     * gone from the very next request, on every instance).
     */
    access: () => Promise<Access>;
  };
}

export type { Database };
