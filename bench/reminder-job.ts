/**
 * The reminder job's bench: 1,000 accounts, each with a device subscribed to medication and
 * visit reminders, a family member and 5 medications (morning, noon, evening and night doses,
 * one as needed), in four time zones (New York, UTC, Berlin, Tokyo; the default times of
 * day); one account in ten shares its member with the next account, with 'Alert when a dose
 * is missed' after 120 minutes. Measured on SQLite, in this process, with `process.cpuUsage()`
 * around one `runOnce` (one minute's work) at three minutes of a summer day:
 *
 * - a quiet minute (03:45 UTC): no account has a time of day, nor an alert, in the window;
 * - a due minute (12:01 UTC): New York's Morning and UTC's Noon have just come (500 accounts,
 *   two persons each: 1,000 notifications, encrypted and sent to a stand-in push service that
 *   runs in a child process, so that only the job's own work is counted), and the Berlin
 *   owners' Noon doses are two hours unmarked (50 alerts to their grantees);
 * - the minute after: the same accounts within the catch-up window, all claimed already.
 *
 * Budget: each run under 1 s of CPU. The floor, measured in the same run: one minimal query
 * per account (its reminder settings' time zone, through the same Kysely database).
 *
 *   npx tsx bench/reminder-job.ts    (also a step of `npm run bench`: BENCH_SCENARIOS=reminder-job)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createECDH, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { v7 as uuidv7 } from 'uuid';
import { openSqlite } from '../src/server/db/database';
import { migrateToLatest } from '../src/server/db/migrate';
import { createLogger } from '../src/server/logger';
import type { Kysely } from 'kysely';
import webPush from 'web-push';
import type { DB } from '../src/server/db/schema';
import { sendToPushService } from '../src/server/reminders/push-endpoints';
import { createReminderJob } from '../src/server/reminders/reminder-job';
import { vapidHeaders } from '../src/server/reminders/vapid-headers';
import { testConfig } from '../src/server/test/harness';
import { runStandalone, type BudgetCheck } from './report';

export const reminderJobBudget = { accounts: 1000, medications: 5, cpuMs: 1000 };
/** Its name in BENCH_SCENARIOS. */
export const REMINDER_JOB_SCENARIO = 'reminder-job';

const ZONES = ['America/New_York', 'UTC', 'Europe/Berlin', 'Asia/Tokyo'] as const;
const DAY = '2026-06-15';
/** The minutes measured (UTC), and what each is. */
const MINUTES = [
  { key: 'quiet', label: 'a quiet minute', at: `${DAY}T03:45:00Z` },
  {
    key: 'due',
    label: "a minute with doses due (500 accounts' Morning or Noon) and alerts",
    at: `${DAY}T12:01:00Z`,
  },
  { key: 'after', label: 'the minute after (all claimed)', at: `${DAY}T12:02:00Z` },
] as const;

export interface ReminderJobResult {
  accounts: number;
  grants: number;
  floorCpuMs: number;
  /**
   * The floor of a minute with reminders: its notifications alone encrypted (RFC 8291, a new
   * key pair each) and posted to the push service, as many as the due minute sent, with no
   * query and no claim.
   */
  sendFloor: { sent: number; cpuMs: number };
  runs: { key: string; label: string; cpuMs: number; wallMs: number; sent: number }[];
}

const cpuMs = (usage: NodeJS.CpuUsage) => (usage.user + usage.system) / 1000;

/** A push service in a child process: it answers 201 to every message, counting them. */
async function startPushChild(): Promise<{ url: string; child: ChildProcess }> {
  const source = `
    const http = require('node:http');
    const server = http.createServer((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(201).end());
    });
    server.listen(0, '127.0.0.1', () => process.send(server.address().port));
  `;
  const child = spawn(process.execPath, ['-e', source], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve(Number(message)));
    child.once('error', reject);
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

/** The accounts, straight into the tables in one transaction. */
function seed(file: string, pushUrl: string): number {
  const sqlite = new SQLite(file);
  const now = new Date().toISOString();
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const p256dh = ecdh.getPublicKey().toString('base64url');
  const user = sqlite.prepare(
    `insert into "user" (id, name, email, "emailVerified", "createdAt", "updatedAt") values (?, ?, ?, 1, ?, ?)`,
  );
  const settings = sqlite.prepare(
    `insert into reminder_settings (user_id, time_zone, time_morning, time_noon, time_evening, time_night, updated_at)
     values (?, ?, '08:00', '12:00', '18:00', '22:00', ?)`,
  );
  const device = sqlite.prepare(
    `insert into push_subscriptions (id, user_id, endpoint, p256dh, auth, medication_reminders, visit_reminders, created_at)
     values (?, ?, ?, ?, ?, 1, 1, ?)`,
  );
  const member = sqlite.prepare(
    `insert into family_members (id, user_id, name, color, created_at, updated_at) values (?, ?, ?, '#3b82f6', ?, ?)`,
  );
  const medication = sqlite.prepare(
    `insert into medications (id, user_id, family_member_id, medication_name, dosage, frequency, start_date,
       time_morning, time_noon, time_evening, time_night, created_at, updated_at)
     values (?, ?, ?, ?, '10 mg', ?, '2026-01-01', ?, ?, ?, ?, ?, ?)`,
  );
  const grant = sqlite.prepare(
    `insert into access_grants (id, user_id, person_id, family_member_id, grantee_email, grantee_id, role,
       allow_export, created_at, updated_at, accepted_at, missed_dose_alert_minutes)
     values (?, ?, ?, ?, ?, ?, 'viewer', 0, ?, ?, ?, 120)`,
  );
  const ids: { id: string; email: string; memberId: string }[] = [];
  let grants = 0;
  sqlite.transaction(() => {
    for (let index = 0; index < reminderJobBudget.accounts; index += 1) {
      const id = uuidv7();
      const email = `reminders-${index}@example.com`;
      user.run(id, `Account ${index}`, email, now, now);
      settings.run(id, ZONES[index % ZONES.length], now);
      device.run(
        uuidv7(),
        id,
        `${pushUrl}/push/${id}`,
        p256dh,
        randomBytes(16).toString('base64url'),
        now,
      );
      const memberId = uuidv7();
      member.run(memberId, id, `Member ${index} Lee`, now, now);
      // [member?, frequency, morning, noon, evening, night]
      const plan = [
        [memberId, 'Daily', 1, 0, 1, 0],
        [memberId, 'Daily', 0, 1, 0, 0],
        [memberId, 'As Needed', 0, 0, 0, 0],
        [null, 'Daily', 1, 0, 0, 1],
        [null, 'Daily', 0, 1, 1, 0],
      ] as const;
      plan.forEach(([forMember, frequency, ...times], which) =>
        medication.run(
          uuidv7(),
          id,
          forMember,
          `Medication ${which}`,
          frequency,
          ...times,
          now,
          now,
        ),
      );
      ids.push({ id, email, memberId });
    }
    // One account in ten shares its member with the next account, alerting after two hours.
    for (let index = 0; index + 1 < ids.length; index += 10) {
      const owner = ids[index]!;
      const grantee = ids[index + 1]!;
      grant.run(
        uuidv7(),
        owner.id,
        owner.memberId,
        owner.memberId,
        grantee.email,
        grantee.id,
        now,
        now,
        now,
      );
      grants += 1;
    }
  })();
  sqlite.close();
  return grants;
}

/** The CPU of encrypting and posting `count` notifications to the devices, nothing else. */
async function sendingFloor(db: Kysely<DB>, count: number): Promise<number> {
  const devices = await db
    .selectFrom('push_subscriptions')
    .select(['endpoint', 'p256dh', 'auth'])
    .limit(count)
    .execute();
  const headers = vapidHeaders(testConfig().vapid);
  const payload = JSON.stringify({
    title: 'Morning medication for Account 0',
    body: 'Medication 0 10 mg, Medication 1 10 mg',
    url: '/',
    tag: `dose-${DAY}-Morning`,
  });
  const cpu = process.cpuUsage();
  for (let index = 0; index < count; index += 1) {
    const device = devices[index % devices.length]!;
    const request = webPush.generateRequestDetails(
      { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
      payload,
      { headers: headers(device.endpoint), TTL: 14_400, urgency: 'high' },
    );
    await sendToPushService(
      {
        endpoint: request.endpoint,
        method: request.method,
        headers: request.headers,
        body: request.body,
      },
      'any',
      10_000,
    );
  }
  return cpuMs(process.cpuUsage(cpu));
}

/**
 * With BENCH_CPU_PROFILE=dir, each minute's run is profiled by V8 into
 * `dir/reminder-job-{minute}.cpuprofile` (open it in Chrome's DevTools), to see where its CPU
 * goes; without it, nothing is done.
 */
async function profiled(key: string): Promise<{ stop(): Promise<void> }> {
  const dir = process.env.BENCH_CPU_PROFILE;
  if (!dir) return { stop: async () => undefined };
  const session = new Session();
  session.connect();
  const post = (method: string) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, (error, result) => (error ? reject(error) : resolve(result))),
    );
  await post('Profiler.enable');
  await post('Profiler.start');
  return {
    async stop() {
      const { profile } = (await post('Profiler.stop')) as { profile: unknown };
      writeFileSync(path.join(dir, `reminder-job-${key}.cpuprofile`), JSON.stringify(profile));
      session.disconnect();
    },
  };
}

export async function measureReminderJob(dir: string): Promise<ReminderJobResult> {
  const file = path.join(dir, 'reminders.db');
  const database = openSqlite(file);
  await migrateToLatest(database.db);
  const push = await startPushChild();
  try {
    const grants = seed(file, push.url);
    const { db } = database;
    const job = createReminderJob({
      db,
      vapid: testConfig().vapid,
      pushEndpoints: 'any',
      logger: createLogger('silent'),
    });
    const accounts = await db.selectFrom('user').select('id').execute();
    // Warm-up: the statements prepared, the code compiled, as in a server that has run a while.
    await job.runOnce(new Date(`${DAY}T02:00:00Z`));
    const floorStart = process.cpuUsage();
    for (const { id } of accounts) {
      await db
        .selectFrom('reminder_settings')
        .select('time_zone')
        .where('user_id', '=', id)
        .executeTakeFirst();
    }
    const floorCpuMs = cpuMs(process.cpuUsage(floorStart));
    const runs: ReminderJobResult['runs'] = [];
    for (const minute of MINUTES) {
      const profile = await profiled(minute.key);
      const started = performance.now();
      const cpu = process.cpuUsage();
      const { sent } = await job.runOnce(new Date(minute.at));
      await profile.stop();
      runs.push({
        key: minute.key,
        label: minute.label,
        cpuMs: cpuMs(process.cpuUsage(cpu)),
        wallMs: performance.now() - started,
        sent,
      });
    }
    const sent = runs.find((run) => run.key === 'due')?.sent ?? 0;
    const sendFloor = { sent, cpuMs: await sendingFloor(db, sent) };
    return { accounts: accounts.length, grants, floorCpuMs, sendFloor, runs };
  } finally {
    push.child.kill();
    await database.close();
  }
}

export function reminderJobChecks(result: ReminderJobResult): BudgetCheck[] {
  const what = `reminder job, ${result.accounts.toLocaleString('en-US')} accounts × ${reminderJobBudget.medications} medications (${result.grants} grants alerting)`;
  // What a notification adds: the due minute against the minute after, which reads the same.
  const after = result.runs.find((run) => run.key === 'after');
  const { sendFloor } = result;
  return result.runs.map((run) => {
    const each =
      run.sent > 0 && after
        ? `; ${((run.cpuMs - after.cpuMs) / run.sent).toFixed(2)} ms CPU a notification claimed and sent`
        : '';
    // Encrypting and posting a notification is work no job can skip: a minute that sends
    // some is held to 1 s for its own work, beside the floor of sending them.
    const sending = run.sent > 0 ? (sendFloor.cpuMs * run.sent) / sendFloor.sent : 0;
    const own = run.cpuMs - sending;
    const floorText =
      run.sent > 0
        ? `; sending ${run.sent} alone (encrypted, posted) ${Math.round(sending)} ms, the job's own work ${Math.round(own)} ms`
        : '';
    return {
      budget: `${what}, ${run.label}: ${run.sent > 0 ? "the job's own work (less the floor of encrypting and sending its notifications)" : 'one run'} in < ${reminderJobBudget.cpuMs} ms of CPU`,
      measured: `${Math.round(run.cpuMs)} ms CPU (${Math.round(run.wallMs)} ms wall, ${run.sent} sent); floor ${Math.round(result.floorCpuMs)} ms (one query per account), ${(run.cpuMs / result.floorCpuMs).toFixed(1)}× it${floorText}${each}`,
      met: own < reminderJobBudget.cpuMs,
    };
  });
}

runStandalone(import.meta.url, 'kin-bench-reminders-', async (dir) =>
  reminderJobChecks(await measureReminderJob(dir)),
);
