/**
 * The SQL an endpoint runs, taken from the product itself: its own repositories are called
 * on a Kysely instance whose query log is recorded, so the ideal endpoint and the database
 * floor run exactly the statements and parameters the product does, never a hand-copied
 * version that could drift from it. A create is captured inside a transaction that is
 * rolled back, so capturing leaves the data as it was.
 */
import SQLite from 'better-sqlite3';
import { Kysely } from 'kysely';
import { KinSqliteDialect } from '../src/server/db/database';
import type { DB } from '../src/server/db/schema';
import { createFamilyMemberRepository } from '../src/server/family-members/family-member-repository';
import { sessionRow } from '../src/server/http/session';
import { createRecordRepository } from '../src/server/records/record-repository';
import { createTimelineRepository } from '../src/server/timeline/timeline-repository';
import { labTrendOf } from '../src/server/labs/lab-routes';
import type { RecordDefinition } from '../src/shared/records/definition';
import type { CapturedStatement } from './floor-spec';
import { importedFrom } from '../src/server/imports/import-history';

export interface Repositories {
  records(definition: RecordDefinition): ReturnType<typeof createRecordRepository>;
  timeline: ReturnType<typeof createTimelineRepository>;
  /** A lab result's trend, as its route reads it (after the result itself). */
  labTrend: OmitFirst<typeof labTrendOf>;
  /** Where a record came from (a record's page says so), as its route reads it. */
  importedFrom: OmitFirst<typeof importedFrom>;
}

type OmitFirst<F> = F extends (first: never, ...rest: infer R) => infer T
  ? (...rest: R) => T
  : never;

class RolledBack extends Error {}

/** Transaction control goes through the log too; the capture's own rollback is not the endpoint's. */
const TRANSACTION_CONTROL = /^(begin|commit|rollback|savepoint|release)\b/i;

export function openCapture(databaseFile: string) {
  const sqlite = new SQLite(databaseFile);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  let recording: CapturedStatement[] | null = null;
  const db = new Kysely<DB>({
    dialect: new KinSqliteDialect({ database: sqlite }),
    log: (event) => {
      if (event.level === 'query' && recording && !TRANSACTION_CONTROL.test(event.query.sql)) {
        recording.push({ sql: event.query.sql, parameters: [...event.query.parameters] });
      }
    },
  });
  const repositoriesOf = (on: Kysely<DB>): Repositories => {
    const members = createFamilyMemberRepository(on);
    return {
      records: (definition) => createRecordRepository(on, definition, members),
      timeline: createTimelineRepository(on),
      labTrend: (access, record) => labTrendOf(on, access, record),
      importedFrom: (...args) => importedFrom(on, ...args),
    };
  };

  return {
    /** The statements `call` runs, in order, and what it returned. */
    async capture<T>(
      call: (repositories: Repositories) => Promise<T>,
      options: { rollBack?: boolean } = {},
    ): Promise<{ statements: CapturedStatement[]; result: T }> {
      const statements: CapturedStatement[] = [];
      recording = statements;
      try {
        if (!options.rollBack) return { statements, result: await call(repositoriesOf(db)) };
        let result: T | undefined;
        try {
          await db.transaction().execute(async (trx) => {
            result = await call(repositoriesOf(trx));
            throw new RolledBack();
          });
        } catch (error) {
          if (!(error instanceof RolledBack)) throw error;
        }
        return { statements, result: result as T };
      } finally {
        recording = null;
      }
    },
    /** The SQL of the product's session check; its one value is the session's token. */
    sessionSql(): string {
      const compiled = sessionRow(db, 'token').compile();
      if (compiled.parameters.length !== 1) {
        throw new Error('the session check is expected to take the token alone');
      }
      return compiled.sql;
    },
    close: () => db.destroy(),
  };
}
