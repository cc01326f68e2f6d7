/**
 * The ownership check the API harness runs on every statement: what the access module
 * builds passes, the same queries without their owner condition do not, on both engines'
 * placeholder styles.
 */
import { Kysely, PostgresDialect, type Compilable } from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  deleteInScope,
  membersOfScope,
  rowsInScope,
  scopeValues,
  updateInScope,
  deleteOwned,
  ownedBy,
  ownedRow,
  ownedRows,
  rowsByCapability,
  updateOwned,
  type Scope,
} from '../access/scope';
import { KinSqliteDialect } from '../db/database';
import type { DB } from '../db/schema';
import { ownershipViolations } from './sql-ownership';

// Compilers only: these instances never connect.
const engines = {
  sqlite: new Kysely<DB>({ dialect: new KinSqliteDialect({ database: {} as never }) }),
  postgres: new Kysely<DB>({ dialect: new PostgresDialect({ pool: {} as never }) }),
};

const sqlOf = (query: Compilable) => query.compile().sql;

describe.each(Object.entries(engines))('on %s', (_engine, db) => {
  it('passes what the access module builds', () => {
    const owned = [
      ownedRows(db, 'visits', 'u1', 'r').selectAll('r').where('r.id', '=', 'v1'),
      ownedRows(db, 'visits', 'u1', 'r')
        .leftJoin('family_members as m', (join) =>
          join.onRef('m.id', '=', 'r.family_member_id').on(ownedBy('family_members', 'u1', 'm')),
        )
        .selectAll('r'),
      ownedRows(db, 'notes', 'u1')
        .select('id')
        .unionAll(ownedRows(db, 'shots', 'u1').select('id')),
      updateOwned(db, 'family_members', 'u1').set({ name: 'Kid' }).where('id', '=', 'm1'),
      deleteOwned(db, 'shots', 'u1').where('id', '=', 's1'),
      db
        .insertInto('notes')
        .values(ownedRow('u1', { id: 'n1', title: 'x', created_at: '', updated_at: '' })),
    ];
    for (const query of owned) expect(ownershipViolations(sqlOf(query)), sqlOf(query)).toEqual([]);
  });

  it('passes a token table’s row found by its token, and nothing else found with it', () => {
    const byToken = rowsByCapability(db, 'calendar_links', 'hash').select('user_id');
    expect(ownershipViolations(sqlOf(byToken))).toEqual([]);
    // The token names its own row, not other tables' rows, nor a token table's by other means.
    const joined = rowsByCapability(db, 'calendar_links', 'hash')
      .innerJoin('visits', 'visits.user_id', 'calendar_links.user_id')
      .select('visits.visit_name');
    expect(ownershipViolations(sqlOf(joined))).not.toEqual([]);
    const byOther = db.selectFrom('calendar_links').select('user_id').where('created_at', '=', 'x');
    expect(ownershipViolations(sqlOf(byOther))).toHaveLength(1);
  });

  it('passes a scope of shared persons, and a grant found by its grantee’s own email', () => {
    const scope: Scope = [
      { kind: 'all', owner: 'u1' },
      { kind: 'member', owner: 'u2', member: 'm1' },
      { kind: 'self', owner: 'u3' },
    ];
    const shared = [
      rowsInScope(db, 'visits', scope, scopeValues(scope), 'r')
        .leftJoin('family_members as m', (join) =>
          join
            .onRef('m.id', '=', 'r.family_member_id')
            .on(membersOfScope(scope, scopeValues(scope), 'm')),
        )
        .selectAll('r'),
      rowsInScope(db, 'record_counts', scope, scopeValues(scope)).select('total'),
      updateInScope(db, 'shots', scope).set({ location: 'x' }).where('id', '=', 's1'),
      deleteInScope(db, 'shots', scope).where('id', '=', 's1'),
      db
        .selectFrom('access_grants as g')
        .select('g.id')
        .where('g.grantee_email', 'in', ownedRows(db, 'user', 'u1').select('email')),
      // An accepted grant, by the id of the account that accepted it.
      db.selectFrom('access_grants as g').select('g.id').where('g.grantee_id', '=', 'u1'),
    ];
    for (const query of shared) expect(ownershipViolations(sqlOf(query)), sqlOf(query)).toEqual([]);
    // A grant found by an email the request names itself is anyone's grant.
    const byEmail = db
      .selectFrom('access_grants as g')
      .select('g.id')
      .where('g.grantee_email', '=', 'someone@example.com');
    expect(ownershipViolations(sqlOf(byEmail))).toHaveLength(1);
    const anyAccepted = db
      .selectFrom('access_grants as g')
      .select('g.id')
      .where('g.grantee_id', 'is not', null);
    expect(ownershipViolations(sqlOf(anyAccepted))).toHaveLength(1);
  });

  it('flags the same queries without their owner condition', () => {
    const unowned = [
      db.selectFrom('visits as r').selectAll('r').where('r.id', '=', 'v1'),
      ownedRows(db, 'visits', 'u1', 'r')
        .leftJoin('family_members as m', 'm.id', 'r.family_member_id')
        .selectAll('r'),
      ownedRows(db, 'notes', 'u1').select('id').unionAll(db.selectFrom('shots').select('id')),
      db.updateTable('family_members').set({ name: 'Kid' }).where('id', '=', 'm1'),
      db.deleteFrom('shots').where('id', '=', 's1'),
      db
        .insertInto('notes')
        .values({ id: 'n1', title: 'x', created_at: '', updated_at: '' } as never),
      // An owner column compared with something other than a bound value is not a filter.
      db.selectFrom('visits').selectAll().where('user_id', 'is not', null),
    ];
    for (const query of unowned) {
      expect(ownershipViolations(sqlOf(query)).length, sqlOf(query)).toBeGreaterThan(0);
    }
  });

  it('leaves better-auth’s own tables and the server’s upkeep alone', () => {
    expect(
      ownershipViolations(sqlOf(db.selectFrom('session').selectAll().where('token', '=', 't'))),
    ).toEqual([]);
    expect(
      ownershipViolations(sqlOf(db.deleteFrom('audit_log').where('created_at', '<', '2025-01-01'))),
    ).toEqual([]);
  });

  it('lets a share link be reached by its unguessable id alone, and nothing else by it', () => {
    const reached = [
      rowsByCapability(db, 'share_links', 'm').select(['id', 'user_id']),
      rowsByCapability(db, 'share_link_files', 't').select(['share_link_id', 'user_id']),
      db.deleteFrom('share_links').where('expires_at', '<', '2026-01-01'),
      db.deleteFrom('share_link_files').where('expires_at', '<', '2026-01-01'),
    ];
    for (const query of reached)
      expect(ownershipViolations(sqlOf(query)), sqlOf(query)).toEqual([]);
    const notReached = [
      // By its row id, not its manifest id.
      db.selectFrom('share_links').selectAll().where('id', '=', 'l1'),
      db.updateTable('share_links').set({ jwe: null }).where('id', '=', 'l1'),
      // A capability does not carry over to the tables joined to it.
      rowsByCapability(db, 'share_links', 'm')
        .innerJoin('share_link_accesses', 'share_link_accesses.share_link_id', 'share_links.id')
        .selectAll(),
      // Other tables have no capability column.
      db.selectFrom('share_link_accesses').selectAll().where('share_link_id', '=', 'l1'),
      // A comparison with something other than a bound value is no capability.
      db.selectFrom('share_links').selectAll().where('manifest_id', 'is not', null),
    ];
    for (const query of notReached) {
      expect(ownershipViolations(sqlOf(query)).length, sqlOf(query)).toBeGreaterThan(0);
    }
  });
});
