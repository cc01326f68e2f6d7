/** The per-request values the API's middleware hands to its routes. */
import type { Database } from '../db/database';

export interface SessionUser {
  id: string;
  email: string;
  name: string;
}

export interface AppEnv {
  Variables: {
    user: SessionUser;
    sessionId: string;
  };
}

export type { Database };
