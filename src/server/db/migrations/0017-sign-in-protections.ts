/**
 * Sign-in protections.
 *
 * - attempt_limits gains a growing delay: once a limit's window has had its `max` attempts,
 *   one more is let through only after `blocked_until`, and each one doubles `delay_ms`
 *   (the server-wide limit on wrong Friends & Family Passcodes, limits/attempt-limits.ts).
 * - user gains `password_common`: 1 when the password chosen at sign-up is among the most
 *   common breached ones, so Profile Settings can say so.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('attempt_limits')
    .addColumn('blocked_until', 'bigint', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('attempt_limits')
    .addColumn('delay_ms', 'bigint', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('user')
    .addColumn('password_common', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
}
