/**
 * Two-factor sign-in, signing keys and the security audit log.
 *
 * better-auth's part (the user's twoFactorEnabled flag, the twoFactor and jwks tables) is
 * written out per engine as its schema generator makes it (`getMigrations(...)
 * .compileMigrations()` with the twoFactor and jwt plugins); a test checks that it finds
 * nothing missing.
 *
 * audit_log is the product's own. It keeps user_id as plain text with no foreign key on
 * purpose: deleting an account must not erase the record that it was deleted, nor who
 * signed in before. It never holds a password, passcode, code or token.
 */
import { sql, type Kysely } from 'kysely';
import { engineOf } from './engine';

const sqliteStatements = [
  `alter table "user" add column "twoFactorEnabled" integer default 0`,
  `create table "twoFactor" ("id" text not null primary key, "secret" text not null, "backupCodes" text not null, "userId" text not null references "user" ("id") on delete cascade, "verified" integer, "failedVerificationCount" integer, "lockedUntil" date)`,
  `create table "jwks" ("id" text not null primary key, "publicKey" text not null, "privateKey" text not null, "createdAt" date not null, "expiresAt" date, "alg" text, "crv" text)`,
];

const postgresStatements = [
  `alter table "user" add column "twoFactorEnabled" boolean default false`,
  `create table "twoFactor" ("id" text not null primary key, "secret" text not null, "backupCodes" text not null, "userId" text not null references "user" ("id") on delete cascade, "verified" boolean, "failedVerificationCount" integer, "lockedUntil" timestamptz)`,
  `create table "jwks" ("id" text not null primary key, "publicKey" text not null, "privateKey" text not null, "createdAt" timestamptz not null, "expiresAt" timestamptz, "alg" text, "crv" text)`,
];

const indexes = [
  `create index "twoFactor_secret_idx" on "twoFactor" ("secret")`,
  `create index "twoFactor_userId_idx" on "twoFactor" ("userId")`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = engineOf(db) === 'postgres' ? postgresStatements : sqliteStatements;
  for (const statement of [...statements, ...indexes]) {
    await sql.raw(statement).execute(db);
  }

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (col) => col.primaryKey())
    // Plain text, not a reference: the row outlives the account.
    .addColumn('user_id', 'text')
    // Only for a failed sign-in: the email that was tried.
    .addColumn('email', 'text')
    .addColumn('event', 'text', (col) => col.notNull())
    .addColumn('detail', 'text')
    .addColumn('ip_address', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('audit_log_user_created_idx')
    .on('audit_log')
    .columns(['user_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('audit_log_created_idx')
    .on('audit_log')
    .column('created_at')
    .execute();
}
