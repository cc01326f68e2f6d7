/**
 * The check behind "every query of user data goes through the access module": given a SQL
 * statement as the database received it, the tables of user data it reads or writes that
 * carry no owner condition. The API test harness runs it on every statement a request
 * sends (both engines), and a test file fails when any of its requests sent such a
 * statement.
 *
 * A reference is owned when the statement holds its owner column compared with a bound
 * value (`"r"."user_id" = ?`, `"user_id" = $1`, `… in (…)`), as the access module writes
 * it; an insert, when its columns name the owner. better-auth's tables are left out: its
 * own code reaches them by session token or email, which is how a request is tied to an
 * owner in the first place. So is a row of a token table (a calendar link) found by its
 * token's hash, in a statement that touches no other table of user data.
 */
import {
  AUTH_TABLES,
  CAPABILITY_COLUMNS,
  GRANTEE_ACCOUNT_COLUMNS,
  GRANTEE_COLUMNS,
  OWNER_COLUMNS,
} from '../access/access';

/** Statements on user data that are the server's own upkeep, no one user's read or write. */
const UPKEEP: ReadonlyArray<{ pattern: RegExp; why: string }> = [
  {
    pattern: /^delete from "audit_log" where "created_at" < (\+?\?|\$1)$/,
    why: 'retention: every account’s rows older than AUDIT_RETENTION_DAYS',
  },
  {
    pattern: /^delete from "audit_log" where "user_id" is null and "email" = (\+?\?|\$1)$/,
    why: 'account deletion: sign-ins refused for its email before the account was known',
  },
  {
    pattern: /^delete from "share_links" where "person_id" = (\+?\?|\$1)$/,
    why: 'account deletion: the links of the account as a person, a grantee’s included',
  },
  {
    pattern: /^delete from "(share_links|share_link_files)" where "expires_at" < (\+?\?|\$1)$/,
    why: 'expiry: every account’s share links (their ciphertext) and file addresses past their end',
  },
];

/** Tables some rows of which are reached by an unguessable id instead of their owner. */
const capabilityColumns: ReadonlyMap<string, string> = new Map(Object.entries(CAPABILITY_COLUMNS));

/** Tables some rows of which their grantee reaches, by their own user row's email. */
const granteeColumns: ReadonlyMap<string, string> = new Map(Object.entries(GRANTEE_COLUMNS));

/** Tables some rows of which the account that accepted them reaches by its own id. */
const granteeAccountColumns: ReadonlyMap<string, string> = new Map(
  Object.entries(GRANTEE_ACCOUNT_COLUMNS),
);

const userDataTables = new Map(
  Object.entries(OWNER_COLUMNS).filter(([table]) => !AUTH_TABLES.has(table)),
);

/** The session check: one session, by the token the request holds. */
const SESSION_BY_TOKEN = /^select .* from "session" where "token" = (\+?\?|\$1)$/;

const REFERENCE = /\b(from|join|update|into)\s+"(\w+)"(?:\s+as\s+"(\w+)")?/gi;
/** A bound value as each engine writes it: `?` (SQLite's `+?`, see db/database.ts) or `$1`. */
const PARAMETER = String.raw`(?:\+?\?|\$\d+)`;
const BOUND = String.raw`\s*(?:=\s*${PARAMETER}|in\s*\()`;

export interface OwnershipViolation {
  table: string;
  sql: string;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function ownershipViolations(statement: string): OwnershipViolation[] {
  const sql = statement.replace(/\s+/g, ' ').trim();
  if (UPKEEP.some(({ pattern }) => pattern.test(sql))) return [];
  const violations: OwnershipViolation[] = [];
  // Unaliased references to tables with the same owner column share the unqualified
  // conditions: a union of five tables needs five.
  const unqualifiedNeeded = new Map<string, number>();
  for (const match of sql.matchAll(REFERENCE)) {
    const [, keyword = '', table = '', alias] = match;
    const column = userDataTables.get(table);
    if (!column) continue;
    if (keyword.toLowerCase() === 'into') {
      const columns = new RegExp(`into "${escape(table)}" \\(([^)]*)\\)`, 'i').exec(sql)?.[1];
      if (!columns?.includes(`"${column}"`)) violations.push({ table, sql });
      continue;
    }
    const qualified = new RegExp(`"${escape(alias ?? table)}"\\."${column}"${BOUND}`, 'i');
    if (qualified.test(sql)) continue;
    // A grant found by the account that accepted it: its id, bound, or the session's user.
    const account = granteeAccountColumns.get(table);
    if (
      account &&
      (new RegExp(`"${escape(alias ?? table)}"\\."${account}"${BOUND}`, 'i').test(sql) ||
        (SESSION_BY_TOKEN.test(sql) &&
          new RegExp(`"${escape(alias ?? table)}"\\."${account}" = "session"\\."userId"`, 'i').test(
            sql,
          )))
    ) {
      continue;
    }
    // A grant found by its grantee: their email, read from their own user row by id, or by
    // the session the request holds (the session check asks whether any grant names them).
    const grantee = granteeColumns.get(table);
    if (
      grantee &&
      (new RegExp(
        `"${escape(alias ?? table)}"\\."${grantee}" in \\(select "email" from "user" where "user"\\."id" ${BOUND}`,
        'i',
      ).test(sql) ||
        (SESSION_BY_TOKEN.test(sql) &&
          new RegExp(
            `"${escape(alias ?? table)}"\\."${grantee}" in \\(select "email" from "user" where "user"\\."id" = "session"\\."userId"\\)`,
            'i',
          ).test(sql)))
    ) {
      continue;
    }
    // A row reached by the capability its reader holds: the only table of the statement.
    const capability = capabilityColumns.get(table);
    if (
      capability &&
      !alias &&
      [...sql.matchAll(REFERENCE)].length === 1 &&
      new RegExp(
        `(?<![.\\w])(?:"${escape(table)}"\\.)?"${capability}"\\s*=\\s*${PARAMETER}`,
        'i',
      ).test(sql)
    ) {
      continue;
    }
    if (alias) {
      violations.push({ table, sql });
      continue;
    }
    unqualifiedNeeded.set(column, (unqualifiedNeeded.get(column) ?? 0) + 1);
  }
  for (const [column, needed] of unqualifiedNeeded) {
    const found = sql.match(new RegExp(`(?<![."\\w])"${column}"${BOUND}`, 'gi'))?.length ?? 0;
    if (found < needed)
      violations.push({ table: `(${needed - found} of ${needed} unqualified)`, sql });
  }
  return violations;
}

/** Collects the violations of the statements a test server's requests send. */
export function ownershipRecorder() {
  const found = new Map<string, OwnershipViolation>();
  return {
    record(statement: string) {
      for (const violation of ownershipViolations(statement)) found.set(violation.sql, violation);
    },
    /** Throws, naming every statement that reached user data without an owner condition. */
    assertNone() {
      if (found.size === 0) return;
      const list = [...found.values()].map((v) => `  ${v.table}: ${v.sql}`).join('\n');
      throw new Error(
        `${found.size} statement(s) read or wrote user data with no owner condition (every ` +
          `query of user data goes through src/server/access/scope.ts):\n${list}`,
      );
    },
  };
}
