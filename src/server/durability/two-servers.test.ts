/**
 * The app servers keep no state of their own: two server processes on one PostgreSQL
 * database share sessions, data, the sign-in rate limits and the passcode guess limit; a
 * document uploaded through one is downloaded through the other; its text is read once, by
 * one of them; a mail is sent once; and neither makes backups of its own (PostgreSQL is
 * backed up once, by pg_dump, outside: docs/operations.md).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { samplePdf } from '../documents/fixtures/sample-files';
import { uploadDocument } from '../test/documents';
import { TestClient, testEngine, uniqueEmail } from '../test/harness';
import { createServerStorage, startServerProcess, stopServerProcess } from '../test/server-process';
import { MAIL_FROM, startTestSmtpServer } from '../test/smtp-server';

/** The address the family opens, at the proxy in front of both servers. */
const PUBLIC_URL = 'https://health.example.org';

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

describe.runIf(testEngine() === 'postgres')('two servers on one PostgreSQL database', () => {
  it('share sessions, writes and rate limits', async () => {
    const storage = await createServerStorage();
    cleanups.push(storage.drop);
    const env: Record<string, string> = { ...storage.env, AUTH_RATE_LIMIT: '4/60' };
    // Each server has a data directory of its own: nothing may live there but defaults.
    const one = await startServerProcess(env);
    cleanups.push(() => stopServerProcess(one));
    const two = await startServerProcess({ ...env, DATA_DIR: `${env.DATA_DIR}-two` });
    cleanups.push(() => stopServerProcess(two));

    const email = uniqueEmail('shared');
    const onOne = TestClient.over(one.url);
    const signUp = await onOne.signUp({ name: 'Shared User', email });
    expect(signUp.status).toBe(200);

    // A session made on one server works on the other.
    const onTwo = onOne.against(two.url);
    expect((await onTwo.request<{ email: string }>('GET', '/api/profile')).body.email).toBe(email);

    // Writes through either are read through both.
    const viaTwo = await onTwo.request<{ id: string }>('POST', '/api/notes', {
      title: 'Written on two',
    });
    expect(viaTwo.status).toBe(201);
    expect((await onOne.request('GET', `/api/notes/${viaTwo.body.id}`)).status).toBe(200);
    const viaOne = await onOne.request<{ id: string }>('POST', '/api/family-members', {
      name: 'Kid',
    });
    expect(
      (await onTwo.request<{ id: string }[]>('GET', '/api/family-members')).body.map((m) => m.id),
    ).toEqual([viaOne.body.id]);

    // Sign-out on one ends the session on both.
    const spare = TestClient.over(one.url);
    await spare.signIn({ email, password: 'secret-password' });
    await spare.signOut();
    expect((await spare.against(two.url).request('GET', '/api/profile')).status).toBe(401);

    // Failed sign-ins count across both servers: the limit is one budget, not one per server
    // (with a budget per server, none of these six would be refused).
    const statuses: number[] = [];
    for (const base of [one.url, two.url, one.url, two.url, one.url, two.url]) {
      const attempt = await TestClient.over(base).signIn({ email, password: 'wrong-password' });
      statuses.push(attempt.status);
    }
    // The spare sign-in used one of the four attempts this address has.
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses.filter((status) => status === 429).length).toBe(3);
    expect(statuses.at(-1)).toBe(429);
  });

  it('share the passcode guess limit and documents, and read a text and send a mail once', async () => {
    const storage = await createServerStorage();
    cleanups.push(storage.drop);
    const smtp = await startTestSmtpServer();
    cleanups.push(() => smtp.stop());
    const certificateDir = mkdtempSync(path.join(tmpdir(), 'kin-smtp-'));
    cleanups.push(async () => rmSync(certificateDir, { recursive: true, force: true }));
    const certificate = path.join(certificateDir, 'certificate.pem');
    writeFileSync(certificate, smtp.certificate);
    const env: Record<string, string> = {
      ...storage.env,
      PASSCODE_GUESS_LIMIT: '3/3600',
      SMTP_URL: smtp.url,
      MAIL_FROM,
      BASE_URL: PUBLIC_URL,
      NODE_EXTRA_CA_CERTS: certificate,
    };
    const dataDirs = [env.DATA_DIR ?? '', `${env.DATA_DIR}-two`];
    cleanups.push(async () => rmSync(dataDirs[1] ?? '', { recursive: true, force: true }));
    // Both start at once: the migrations run once (Kysely's lock), and both come up.
    const [one, two] = await Promise.all(
      dataDirs.map((dataDir) => startServerProcess({ ...env, DATA_DIR: dataDir })),
    );
    if (!one || !two) throw new Error('two servers did not start');
    cleanups.push(
      () => stopServerProcess(one),
      () => stopServerProcess(two),
    );

    // Behind one reverse proxy: the browser's origin is the public address, whichever
    // server the proxy hands a request to.
    const through = (url: string) => TestClient.over(url).withHeaders({ origin: PUBLIC_URL });
    const email = uniqueEmail('pair');
    const onOne = through(one.url);
    const signUp = await onOne.signUp({ name: 'Pair User', email });
    expect(signUp.status).toBe(200);
    const onTwo = onOne.against(two.url).withHeaders({ origin: PUBLIC_URL });

    // A document uploaded through one downloads, byte for byte, through the other.
    const pdf = await samplePdf(2);
    const uploaded = await uploadDocument(onOne, pdf);
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const downloaded = await onTwo.getBytes(`/api/documents/${uploaded.body.id}/file`);
    expect(downloaded.status).toBe(200);
    expect(downloaded.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(downloaded.bytes.length).toBeGreaterThan(pdf.length / 2);

    // Its text is read by one of the two, once: both look for work, one claims it.
    let text: { status: string; text?: string } = { status: 'pending' };
    for (let tries = 0; tries < 120 && text.status !== 'done'; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      text = (await onTwo.get<typeof text>(`/api/documents/${uploaded.body.id}/text`)).body;
    }
    expect(text.status).toBe('done');
    expect(text.text).toContain('Discharge letter, page 2');
    const database = new pg.Client({ connectionString: env.DATABASE_URL });
    await database.connect();
    try {
      const { rows } = await database.query<{ attempts: number }>(
        'select attempts from document_texts where document_id = $1',
        [uploaded.body.id],
      );
      expect(rows).toEqual([{ attempts: 1 }]);
    } finally {
      await database.end();
    }

    // Mail asked for through both is sent once each: both senders race for the queue.
    const resets = await Promise.all(
      [one.url, two.url, one.url, two.url].map((url) =>
        through(url).request('POST', '/api/auth/request-password-reset', { email }),
      ),
    );
    expect(resets.map((reset) => reset.status)).toEqual([200, 200, 200, 200]);
    await expect
      .poll(() => smtp.received.length, { timeout: 30_000, interval: 250 })
      .toBeGreaterThanOrEqual(4);
    // A second sending would come within a claim's retry; both senders are awake and idle.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(smtp.received.length).toBe(4);
    expect(smtp.received.every((mail) => mail.envelopeTo.includes(email))).toBe(true);

    // Wrong passcodes count across both: the limit's three, and the one more the limit lets
    // through as it is reached (credential-endpoints.test.ts); then both refuse. With a budget
    // per server, none of the five would be refused.
    const guesses: number[] = [];
    for (const url of [one.url, two.url, one.url, two.url, one.url]) {
      const guess = await through(url).signUp({ name: 'Guesser', passcode: '000000' });
      guesses.push(guess.status);
    }
    expect(guesses).toEqual([403, 403, 403, 403, 429]);

    // Neither made a backup of its own: on PostgreSQL, pg_dump does, once, outside.
    for (const dataDir of dataDirs) expect(existsSync(path.join(dataDir, 'backups'))).toBe(false);
  });
});
