/**
 * Passkeys (docs/decisions/0034-passkeys.md): better-auth's passkey table, written out per
 * engine as its schema generator makes it (`getMigrations(...).compileMigrations()` with the
 * passkey plugin; a test checks that it finds nothing missing), plus the product's own
 * `last_used_at`, set on every sign-in with the passkey, for the list in Profile Settings.
 * Deleting the account deletes its passkeys (the reference cascades).
 */
import { sql, type Kysely } from 'kysely';
import { engineOf } from './engine';

const sqliteStatements = [
  `create table "passkey" ("id" text not null primary key, "name" text, "publicKey" text not null, "userId" text not null references "user" ("id") on delete cascade, "credentialID" text not null, "counter" integer not null, "deviceType" text not null, "backedUp" integer not null, "transports" text, "createdAt" date, "aaguid" text, "last_used_at" text)`,
];

const postgresStatements = [
  `create table "passkey" ("id" text not null primary key, "name" text, "publicKey" text not null, "userId" text not null references "user" ("id") on delete cascade, "credentialID" text not null, "counter" integer not null, "deviceType" text not null, "backedUp" boolean not null, "transports" text, "createdAt" timestamptz, "aaguid" text, "last_used_at" text)`,
];

const indexes = [
  `create index "passkey_userId_idx" on "passkey" ("userId")`,
  `create index "passkey_credentialID_idx" on "passkey" ("credentialID")`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = engineOf(db) === 'postgres' ? postgresStatements : sqliteStatements;
  for (const statement of [...statements, ...indexes]) {
    await sql.raw(statement).execute(db);
  }
}
