/**
 * What the orchestrator tells the floor server to serve: the fixed bodies of the framework
 * floor and, per endpoint, the SQL its ideal endpoint and database floor run.
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

export interface FloorSpec {
  databaseFile: string;
  /** Per endpoint, its answer as the product gave it: the framework floor sends it back. */
  fixed: Record<string, { status: number; body: string }>;
  ideal: Record<string, IdealSpec>;
}
