/**
 * A PostgreSQL database made for one test file (or one browser-test run) and dropped after
 * it, on the server TEST_DATABASE_URL names: tests never share rows, and never delete rows
 * by hand to reset.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

async function onServer(adminUrl: string, statement: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export async function createThrowawayPostgres(
  adminUrl = process.env.TEST_DATABASE_URL,
  prefix = 'kin_test',
): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await onServer(adminUrl, `create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () => onServer(adminUrl, `drop database if exists ${name} with (force)`),
  };
}
