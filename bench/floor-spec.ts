/**
 * What the orchestrator tells the floor server to serve: the fixed bodies of the framework
 * floor, per endpoint the SQL its ideal endpoint and database floor run, and the session
 * check of the checked ideal endpoint.
 */

/** One statement as the product executed it, from Kysely's query log. */
export interface CapturedStatement {
  sql: string;
  parameters: unknown[];
}

export interface IdealSpec {
  kind: 'read' | 'create' | 'sign-in';
  status: number;
  statements: CapturedStatement[];
  /** For a create: the parameter values that stood for the new id and the current time. */
  fresh?: { id: string; now: string };
  /** For sign-in: the credentials to check. */
  signIn?: { email: string; password: string; passcode: string };
}

/**
 * What the checked ideal endpoint checks, as the product does on every API request: the
 * session cookie's signature (with the server's key) and the session row (the product's own
 * SQL, from src/server/http/session.ts).
 */
export interface SessionCheckSpec {
  sessionSql: string;
  secret: string;
  tokenCookie: string;
}

export interface FloorSpec {
  databaseFile: string;
  session: SessionCheckSpec;
  /** Per endpoint, its answer as the product gave it: the framework floor sends it back. */
  fixed: Record<string, { status: number; body: string }>;
  ideal: Record<string, IdealSpec>;
}
