/**
 * The security audit log: every security event of an account leaves a row saying who, what,
 * when and from where, with no password, passcode, code or token in it; a user sees their
 * own rows only; the rows go with the account, and everyone's after the retention period.
 */
import { describe, expect, it, vi } from 'vitest';
import type {
  ActiveSession,
  AuditEvent,
  SecurityActivityEntry,
} from '../../shared/account-security';
import type { AuditLogTable } from '../db/schema';
import { createLogger } from '../logger';
import { pruneAuditLog, scheduleAuditPruning } from './audit-log';
import {
  createTestServer,
  useTestServer,
  signedUpClient,
  TEST_PASSCODE,
  uniqueEmail,
  type TestClient,
} from '../test/harness';
import { currentCode, enableTwoFactor, wrongCode } from '../test/two-factor';

const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/130.0 AuditTest/1';
const PASSWORD = 'first-password-1';
const NEW_PASSWORD = 'second-password-2';
const WRONG_PASSCODE = '135797';

const server = useTestServer();

const browser = () => server.client().withHeaders({ 'user-agent': USER_AGENT });

function rowsOf(userId: string): Promise<AuditLogTable[]> {
  return server.db
    .selectFrom('audit_log')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

function tokenOf(client: TestClient): string {
  return /kin\.session_token=([^.;]+)/.exec(client.cookieHeader)?.[1] ?? 'no-token';
}

describe('the audit log', () => {
  it('records who, what, when and where for every security event, and no secret', async () => {
    const startedAt = new Date().toISOString();
    const email = uniqueEmail('audited');
    const secrets: string[] = [PASSWORD, NEW_PASSWORD, TEST_PASSCODE, WRONG_PASSCODE];

    const home = browser();
    expect((await home.signUp({ email, password: PASSWORD })).status).toBe(200);
    secrets.push(tokenOf(home));
    const userId = (await home.get<{ id: string }>('/api/profile')).body.id;
    expect((await home.signOut()).status).toBe(200);

    expect((await browser().signIn({ email, password: 'wrong-password' })).status).toBe(401);
    expect(
      (await browser().signIn({ email, password: PASSWORD, passcode: WRONG_PASSCODE })).status,
    ).toBe(401);
    expect((await home.signIn({ email, password: PASSWORD })).status).toBe(200);
    secrets.push(tokenOf(home));

    const twoFactor = await enableTwoFactor(home, PASSWORD);
    secrets.push(twoFactor.secret, ...twoFactor.backupCodes, tokenOf(home));

    // Sign in on a second device with the authenticator app, after one wrong code.
    const phone = browser();
    expect((await phone.signIn({ email, password: PASSWORD })).body).toMatchObject({
      twoFactorRedirect: true,
    });
    secrets.push(phone.cookieHeader);
    const bad = await wrongCode(twoFactor.secret);
    expect((await phone.post('/api/auth/two-factor/verify-totp', { code: bad })).status).toBe(401);
    const good = await currentCode(twoFactor.secret);
    secrets.push(bad, good);
    expect((await phone.post('/api/auth/two-factor/verify-totp', { code: good })).status).toBe(200);
    secrets.push(tokenOf(phone));

    // And on a third with a backup code, after a wrong one.
    const laptop = browser();
    await laptop.signIn({ email, password: PASSWORD });
    expect(
      (await laptop.post('/api/auth/two-factor/verify-backup-code', { code: 'wrong-code1' }))
        .status,
    ).toBe(401);
    expect(
      (
        await laptop.post('/api/auth/two-factor/verify-backup-code', {
          code: twoFactor.backupCodes[0],
        })
      ).status,
    ).toBe(200);
    secrets.push(tokenOf(laptop));

    const sessions = (await home.get<ActiveSession[]>('/api/sessions')).body;
    const phoneSession = sessions.find((session) => !session.current);
    expect((await home.delete(`/api/sessions/${phoneSession?.id}`)).status).toBe(204);
    expect((await home.post('/api/sessions/revoke-others')).status).toBe(204);

    expect(
      (await home.post('/api/auth/two-factor/disable', { password: NEW_PASSWORD })).status,
    ).toBe(400);
    expect((await home.post('/api/auth/two-factor/disable', { password: PASSWORD })).status).toBe(
      200,
    );

    const rows = await rowsOf(userId);
    expect(rows.map((row) => [row.event, row.detail])).toEqual([
      ['sign_up', null],
      ['sign_out', null],
      ['sign_in_failed', 'wrong_password'],
      ['sign_in_failed', 'wrong_passcode'],
      ['sign_in', 'password'],
      ['two_factor_enabled', null],
      ['sign_in_challenged', null],
      ['sign_in_failed', 'wrong_code'],
      ['sign_in', 'authenticator_app'],
      ['sign_in_challenged', null],
      ['sign_in_failed', 'wrong_backup_code'],
      ['sign_in', 'backup_code'],
      ['session_revoked', 'Chrome on Linux'],
      ['session_revoked', 'Chrome on Linux'],
      ['verification_failed', 'two-factor-disable'],
      ['two_factor_disabled', null],
    ] satisfies [AuditEvent, string | null][]);

    const finishedAt = new Date().toISOString();
    for (const row of rows) {
      expect(row.user_id).toBe(userId);
      expect(row.ip_address).toBe('127.0.0.1');
      expect(row.user_agent).toBe(USER_AGENT);
      expect(row.created_at >= startedAt && row.created_at <= finishedAt).toBe(true);
      // The attempted email is kept for a refused password step only.
      const passwordStepRefused = ['wrong_password', 'wrong_passcode'].includes(row.detail ?? '');
      expect(row.email).toBe(passwordStepRefused ? email : null);
    }

    const everything = JSON.stringify(
      await server.db.selectFrom('audit_log').selectAll().execute(),
    );
    for (const secret of secrets) expect(everything).not.toContain(secret);

    // Deleting the account deletes its rows too: they hold its email, addresses, devices.
    expect((await home.request('DELETE', '/api/account', { password: PASSWORD })).status).toBe(204);
    expect(await rowsOf(userId)).toEqual([]);
    const byEmail = await server.db
      .selectFrom('audit_log')
      .select('id')
      .where('email', '=', email)
      .execute();
    expect(byEmail).toEqual([]);
  });

  it('records a sign-in tried with an unknown email, by that email', async () => {
    const email = uniqueEmail('nobody');
    expect((await browser().signIn({ email, password: 'guessing-1' })).status).toBe(401);
    const rows = await server.db
      .selectFrom('audit_log')
      .selectAll()
      .where('email', '=', email)
      .execute();
    expect(rows).toMatchObject([
      { event: 'sign_in_failed', detail: 'wrong_password', user_id: null, email },
    ]);
    expect(JSON.stringify(rows)).not.toContain('guessing-1');
  });

  it('records nothing for requests that never reached a credential', async () => {
    const before = await server.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    await browser().signIn({ email: 'not-an-email', password: 'x' });
    await browser().post('/api/auth/two-factor/verify-totp', { code: '123456' });
    await browser().post('/api/auth/two-factor/verify-backup-code', { code: 'abcde-12345' });
    const after = await server.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    expect(Number(after.count)).toBe(Number(before.count));
  });
});

describe('a failure to write the log', () => {
  it('is logged, and never fails the sign-in it would have recorded', async () => {
    const broken = await createTestServer();
    try {
      const { email, password } = await signedUpClient(broken);
      await broken.db.schema.dropTable('audit_log').execute();
      const client = broken.client();
      expect((await client.signIn({ email, password })).status).toBe(200);
      expect((await client.get('/api/profile')).status).toBe(200);
      expect((await client.signOut()).status).toBe(200);
    } finally {
      await broken.close();
    }
  });
});

describe('GET /api/security-activity', () => {
  it('shows the user their own recent events, newest first, without emails', async () => {
    const ann = await signedUpClient(server, 'Ann');
    const bob = await signedUpClient(server, 'Bob');
    // Someone tries Ann's account with a wrong password: Ann should hear of it.
    expect((await browser().signIn({ email: ann.email, password: 'wrong-password' })).status).toBe(
      401,
    );

    const activity = await ann.client.get<SecurityActivityEntry[]>('/api/security-activity');
    expect(activity.status).toBe(200);
    expect(activity.body.map((entry) => entry.event)).toEqual(['sign_in_failed', 'sign_up']);
    expect(activity.body[0]).toEqual({
      id: expect.any(String),
      event: 'sign_in_failed',
      detail: 'wrong_password',
      ip_address: '127.0.0.1',
      user_agent: USER_AGENT,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const bobs = (await bob.client.get<SecurityActivityEntry[]>('/api/security-activity')).body;
    expect(bobs.map((entry) => entry.event)).toEqual(['sign_up']);
    const annIds = new Set(activity.body.map((entry) => entry.id));
    expect(bobs.some((entry) => annIds.has(entry.id))).toBe(false);
  });

  it('shows at most the 20 newest', async () => {
    const { client, email, password } = await signedUpClient(server);
    for (let attempt = 0; attempt < 22; attempt += 1) {
      await server.client().signIn({ email, password: `${password}-wrong` });
    }
    const activity = (await client.get<SecurityActivityEntry[]>('/api/security-activity')).body;
    expect(activity).toHaveLength(20);
    expect(activity.every((entry) => entry.event === 'sign_in_failed')).toBe(true);
  });

  it('needs a session', async () => {
    expect((await server.client().get('/api/security-activity')).status).toBe(401);
  });
});

describe('retention', () => {
  it('deletes everyone’s rows older than the retention period, and keeps the rest', async () => {
    const { client } = await signedUpClient(server);
    const userId = (await client.get<{ id: string }>('/api/profile')).body.id;
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    for (const [id, created_at] of [
      ['old-1', daysAgo(400)],
      ['old-2', daysAgo(366)],
      ['recent', daysAgo(364)],
    ] as const) {
      await server.db
        .insertInto('audit_log')
        .values({ id: `${userId}-${id}`, user_id: userId, event: 'sign_in', created_at })
        .execute();
    }
    const pruned = await pruneAuditLog(server.db, 365);
    expect(pruned).toBeGreaterThanOrEqual(2);
    const left = await rowsOf(userId);
    expect(left.map((row) => row.id)).not.toContain(`${userId}-old-1`);
    expect(left.map((row) => row.id)).not.toContain(`${userId}-old-2`);
    expect(left.map((row) => row.id)).toContain(`${userId}-recent`);
    expect(left.some((row) => row.event === 'sign_up')).toBe(true);
  });

  it('runs when the server starts, and every day after', async () => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    });
    try {
      const prune = vi.fn(async () => 0);
      const stop = scheduleAuditPruning(prune, createLogger('silent'));
      await vi.advanceTimersByTimeAsync(1_000);
      expect(prune).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(24 * 60 * 60 * 1000);
      expect(prune).toHaveBeenCalledTimes(2);
      stop();
      await vi.advanceTimersByTimeAsync(48 * 60 * 60 * 1000);
      expect(prune).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
