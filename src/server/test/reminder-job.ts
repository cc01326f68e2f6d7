/** For tests: the reminder job over a test server's database, with the tests' push settings. */
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { createLogger } from '../logger';
import type { MailOutbox } from '../mail/mail-queue';
import { createReminderJob, type ReminderJobOptions } from '../reminders/reminder-job';
import { testConfig } from './harness';

export function testReminderJob(
  db: Kysely<DB>,
  options: { outbox?: MailOutbox } & Partial<ReminderJobOptions> = {},
) {
  return createReminderJob({
    db,
    vapid: testConfig().vapid,
    pushEndpoints: testConfig().pushEndpoints,
    logger: createLogger('silent'),
    ...options,
  });
}
