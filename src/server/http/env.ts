/** The per-request values the API's middleware hands to its routes. */
import type { Database } from '../db/database';

/** The signed-in user, as a request knows them: what to read their rows by. */
export interface SessionUser {
  id: string;
}

export interface AppEnv {
  Variables: {
    user: SessionUser;
    sessionId: string;
  };
}

export type { Database };
