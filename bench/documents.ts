/**
 * `npm run bench:documents`: the documents' budgets (issue 36), on a fresh SQLite data
 * directory, the product's app served over a real socket in this process:
 *
 * - an upload of a 10 MB PDF and of a 5 MB photo: time, and how much the process's RSS grows
 *   while it streams in (budget: under 40 MB for a 25 MB file);
 * - /api/documents' first page with 500 documents: p50 of 200 requests (budget: 20 ms);
 * - a thumbnail of a 20-page PDF and of a 12-megapixel photo, made on the documents thread
 *   (budget: under 1 s each, the thread already started).
 *
 * Prints one line per measure and writes them to bench/results/documents-latest.json.
 * BENCH_DOCUMENTS=upload,list,thumbnail (any of them) measures only those.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import webPush from 'web-push';
import { createApp } from '../src/server/app';
import { createAuth } from '../src/server/auth/auth';
import { settleFamilyPasscode } from '../src/server/auth/family-passcode';
import { createPasswordHasher } from '../src/server/auth/password-hashing';
import { parseBackupConfig, type AppConfig } from '../src/server/config';
import { openSqlite } from '../src/server/db/database';
import { migrateToLatest } from '../src/server/db/migrate';
import { documentDeriveThread } from '../src/server/documents/document-derive-thread';
import { createLogger } from '../src/server/logger';
import { samplePdf } from '../src/server/documents/fixtures/sample-files';
import { TEST_PASSCODE } from '../src/server/test/test-passcode';

const dataDir = mkdtempSync(path.join(tmpdir(), 'kin-bench-documents-'));
const config: AppConfig = {
  port: 0,
  host: '127.0.0.1',
  dataDir,
  databaseUrl: null,
  familyPasscode: TEST_PASSCODE,
  familyPasscodeGenerated: false,
  familyPasscodeFrom: 'FAMILY_PASSCODE',
  authSecret: 'bench-documents-secret-bench-documents-0123',
  baseUrl: null,
  trustProxy: false,
  rateLimit: null,
  passcodeGuessLimit: null,
  sessionMaxAgeDays: 30,
  auditRetentionDays: 365,
  passwordHashing: { memoryKiB: 1_024, iterations: 1, parallelism: 1 },
  logLevel: 'warn',
  webDir: path.join(dataDir, 'no-web-app'),
  backup: parseBackupConfig({}, dataDir),
  vapid: { ...webPush.generateVAPIDKeys(), subject: 'mailto:bench@example.invalid' },
  pushEndpoints: 'public',
  mail: null,
  passkeys: true,
  singleSignOn: null,
  documentQuotaMb: 2048,
  ocrLanguages: ['eng'],
};

const MB = 1024 * 1024;
const parts = ['upload', 'list', 'thumbnail'] as const;
const chosen = (process.env.BENCH_DOCUMENTS ?? parts.join(','))
  .split(',')
  .map((part) => part.trim());
for (const part of chosen) {
  if (!(parts as readonly string[]).includes(part)) {
    throw new Error(`BENCH_DOCUMENTS: '${part}' is none of ${parts.join(', ')}`);
  }
}
const measures = (part: (typeof parts)[number]) => chosen.includes(part);
const lines: Record<string, unknown> = {};
const report = (name: string, values: Record<string, number | string | boolean>) => {
  lines[name] = values;
  process.stdout.write(
    `${name.padEnd(34)} ${Object.entries(values)
      .map(([key, value]) => `${key} ${value}`)
      .join(', ')}\n`,
  );
};

/** Random bytes (incompressible), so that a file's size is what it says. */
const noise = (bytes: number) => {
  const buffer = Buffer.allocUnsafe(bytes);
  for (let i = 0; i < bytes; i += 4) buffer.writeUInt32LE((Math.random() * 2 ** 32) >>> 0, i);
  return buffer;
};

const pdf = samplePdf;

/** A photo of noise (incompressible, so large for its pixels), with a camera's EXIF. */
async function photo(width: number, height: number, quality: number): Promise<Buffer> {
  return sharp(noise(width * height * 3), { raw: { width, height, channels: 3 } })
    .jpeg({ quality })
    .withExif({ IFD0: { Make: 'Bench', Model: 'Camera' } })
    .toBuffer();
}

async function main() {
  mkdirSync(dataDir, { recursive: true });
  const database = openSqlite(path.join(dataDir, 'kin-health.db'));
  await migrateToLatest(database.db);
  const logger = createLogger('warn');
  await settleFamilyPasscode(database.db, {
    passcode: config.familyPasscode,
    from: config.familyPasscodeFrom,
    hasher: createPasswordHasher(config.passwordHashing),
    logger,
  });
  const auth = createAuth({ db: database.db, engine: database.engine, config, logger });
  const app = createApp({ database, auth, config, logger });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const started = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
      resolve(started),
    );
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const signUp = await fetch(`${base}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({
      name: 'Maria Garcia',
      email: 'heavy@example.com',
      password: 'bench-password-123',
      passcode: TEST_PASSCODE,
    }),
  });
  const cookie = signUp.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const userId = ((await signUp.json()) as { user: { id: string } }).user.id;
  const headers = { cookie, origin: base };

  const upload = async (name: string, bytes: Buffer, query: string) => {
    // Warm: the thread started, pdf.js loaded, by a first small upload of the same kind.
    global.gc?.();
    // The request's body is made before the count starts: the client's copy is not the server's.
    const body = new Uint8Array(bytes);
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    const started = performance.now();
    const response = await fetch(`${base}/api/documents?${query}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/octet-stream' },
      body,
    });
    const ms = performance.now() - started;
    clearInterval(sampler);
    if (response.status !== 201)
      throw new Error(`${name}: ${response.status} ${await response.text()}`);
    report(name, {
      MB: (bytes.length / MB).toFixed(1),
      ms: Math.round(ms),
      'RSS increase MB': ((peak - before) / MB).toFixed(1),
    });
  };

  if (measures('upload')) {
    // The files are made first: a request waits on no making of one (an idle kept-alive
    // connection meanwhile was closed by the server as the next upload started on it).
    const bigImage = await sharp(noise(1800 * 1800 * 3), {
      raw: { width: 1800, height: 1800, channels: 3 },
    })
      .png({ compressionLevel: 0 })
      .toBuffer();
    const pdf10 = await pdf(1, bigImage);
    const photo5 = await photo(2600, 1950, 80);
    const warmPdf = await pdf(1);
    const warmPhoto = await photo(64, 64, 90);

    // Warm-up of the thread and of both kinds of file.
    for (const body of [warmPdf, warmPhoto]) {
      const response = await fetch(`${base}/api/documents?title=warm&document_type=Other`, {
        method: 'POST',
        headers,
        body: new Uint8Array(body),
      });
      if (response.status !== 201) throw new Error(`warm-up: ${response.status}`);
    }
    await upload('upload 10 MB PDF', pdf10, 'title=Report&document_type=Lab%20Report');
    await upload('upload 5 MB photo', photo5, 'title=Card&document_type=Insurance%20Card');
  }

  if (measures('list')) {
    // 500 documents of the heavy user (rows only: the list reads no file).
    const now = Date.now();
    const rows = Array.from({ length: 500 }, (_, index) => ({
      id: `0190a0a0-0000-7000-8000-${String(index).padStart(12, '0')}`,
      user_id: userId,
      family_member_id: null,
      title: `Document ${index}`,
      document_type: 'Letter',
      document_date: '2026-01-01',
      file_name: `document-${index}.pdf`,
      mime_type: 'application/pdf',
      size_bytes: 1000,
      sha256: 'a'.repeat(64),
      display_sha256: null,
      display_bytes: null,
      thumbnail_sha256: 'b'.repeat(64),
      thumbnail_bytes: 5000,
      record_type: null,
      record_id: null,
      created_at: new Date(now - index * 1000).toISOString(),
      updated_at: new Date(now - index * 1000).toISOString(),
    }));
    for (let i = 0; i < rows.length; i += 100) {
      await database.db
        .insertInto('documents')
        .values(rows.slice(i, i + 100))
        .execute();
    }
    const times: number[] = [];
    for (let n = 0; n < 220; n += 1) {
      const started = performance.now();
      const response = await fetch(`${base}/api/documents`, { headers });
      await response.arrayBuffer();
      if (n >= 20) times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    report('/documents first page (500)', {
      'p50 ms': (times[Math.floor(times.length / 2)] ?? 0).toFixed(2),
      'p95 ms': (times[Math.floor(times.length * 0.95)] ?? 0).toFixed(2),
      'budget ms': 20,
    });
  }

  if (measures('thumbnail')) {
    // Thumbnails on the thread, already started.
    const thread = documentDeriveThread();
    const file = (name: string, bytes: Buffer) => {
      const target = path.join(dataDir, name);
      writeFileSync(target, bytes);
      return target;
    };
    const pdf20 = file('twenty.pdf', await pdf(20));
    const photo12 = file('twelve.jpg', await photo(4000, 3000, 85));
    const cleanedFile = path.join(dataDir, 'cleaned');
    await thread.derive({ file: pdf20, mimeType: 'application/pdf', cleanedFile });
    await thread.derive({ file: photo12, mimeType: 'image/jpeg', cleanedFile });
    for (const [name, target, mimeType] of [
      ['thumbnail 20-page PDF', pdf20, 'application/pdf'],
      ['thumbnail 12 MP photo', photo12, 'image/jpeg'],
    ] as const) {
      const started = performance.now();
      const derived = await thread.derive({ file: target, mimeType, cleanedFile });
      report(name, {
        ms: Math.round(performance.now() - started),
        'thumbnail bytes': derived.thumbnail?.byteLength ?? 0,
        'budget ms': 1000,
      });
    }
    await thread.close();
  }

  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/documents-latest.json', `${JSON.stringify(lines, null, 2)}\n`);
  server.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}

await main();
