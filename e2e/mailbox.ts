/**
 * The browser tests' mail: scripts/serve-e2e.ts runs a mail-enabled server at PORT+2 with a
 * test SMTP server (STARTTLS, a password), which writes each message it takes as JSON into
 * this folder; a spec reads the mail sent to an address from there.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from './fixtures';

export interface StoredMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
}

/** The port of the mail-enabled server, beside the e2e server's own PORT. */
export const mailServerPort = (port: number) => port + 2;

export function mailboxDir(port: number): string {
  return path.join(tmpdir(), `kin-e2e-mailbox-${port}`);
}

/** Every mail to `address` the test SMTP server has taken so far. */
export function mailTo(port: number, address: string): StoredMail[] {
  const dir = mailboxDir(port);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .map((file) => JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as StoredMail)
    .filter((mail) => mail.to.includes(address));
}

/** The e2e server's own port, and the address of the mail-enabled server beside it. */
export const e2ePort = Number(process.env.E2E_PORT ?? 4310);
export const mailOrigin = `http://localhost:${mailServerPort(e2ePort)}`;

/**
 * Called in a describe: its tests run against the mail-enabled server, once, on the phone
 * project (the mail-enabled server is one, on SQLite).
 */
export function useMailServer() {
  test.use({ baseURL: mailOrigin });
  test.beforeEach(() => {
    test.skip(test.info().project.name !== 'phone', 'the mail-enabled server is one, on SQLite');
  });
}
