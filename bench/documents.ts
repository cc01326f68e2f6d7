/**
 * `npm run bench:documents`: the documents' budgets (issue 36), on a fresh SQLite data
 * directory, the product's app served over a real socket in this process:
 *
 * - an upload of a 10 MB PDF and of a 5 MB photo (and of a sideways 12 MP photo and a 23.4 MB
 *   scan): time, and how much the server's RSS grows while it streams in and its thumbnail
 *   is made, and the same for the scan's download (budget: under 40 MB for a 25 MB file; the
 *   server in a process of its own, bench/documents-server.ts, its memory read from outside);
 * - /api/documents' first page with 500 documents: p50 of 200 requests (budget: 20 ms);
 * - a thumbnail of a 20-page PDF and of a 12-megapixel photo, made on the documents thread
 *   (budget: under 1 s each, the thread already started);
 * - 'Download my data' as an archive of 40 documents (about 15 MB of files): time to its last
 *   byte (budget: under 2 s, as the JSON export), and the same archive
 *   imported into another account, preview then import, every file typed, hashed and
 *   thumbnailed again (budget: under 60 s, as a FHIR import of 24 MB);
 * - the text of the 23.4 MB scan read by the product as `npm start` runs it (its build, its
 *   flags, its text worker): the time until its 14 pages are read by OCR, the server's
 *   memory at rest before, at most meanwhile, and once its threads have been idle their
 *   time and ended (no budget: work off the request thread, reported).
 *
 * Prints one line per measure and writes them to bench/results/documents-latest.json.
 * BENCH_DOCUMENTS=upload,list,thumbnail,archive,text (any of them) measures only those.
 */
import { DEFAULT_MEMORY_PLAN } from '../src/server/config/memory';
import { fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { openSqlite } from '../src/server/db/database';
import { migrateToLatest } from '../src/server/db/migrate';
import { documentDeriveThread } from '../src/server/documents/document-derive-thread';
import { samplePdf } from '../src/server/documents/fixtures/sample-files';
import type { DocumentTextAnswer } from '../src/shared/documents';
import { startBenchApp } from './app-server';
import { benchConfig } from './config';
import { START_ENV, START_NODE_FLAGS, startProduct } from './processes';
import { noise, photo, scan } from './sample-documents';
import { BENCH_PASSWORD, signInCookie, signUp } from './seed';

const pdf = samplePdf;

const dataDir = mkdtempSync(path.join(tmpdir(), 'kin-bench-documents-'));

const MB = 1024 * 1024;
const parts = ['upload', 'list', 'thumbnail', 'archive', 'text'] as const;
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

async function main() {
  mkdirSync(dataDir, { recursive: true });
  const database = openSqlite(path.join(dataDir, 'kin-health.db'));
  await migrateToLatest(database.db);
  const app = await startBenchApp(database, dataDir);
  const { base, headers, userId } = app;

  if (measures('upload')) {
    // The server in a process of its own, its RSS read from outside: the server's memory
    // alone, none of the client's copy of the file.
    // Run as `npm start` runs the server: its V8 flags and the allocator's settings.
    const server = fork(path.join(import.meta.dirname, 'documents-server.ts'), {
      execArgv: [...START_NODE_FLAGS, '--import', 'tsx', '--expose-gc'],
      env: { ...process.env, ...START_ENV },
    });
    const next = () => new Promise<unknown>((resolve) => server.once('message', resolve));
    const target = (await next()) as { base: string; headers: Record<string, string> };
    const rssOf = () => {
      const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
    };
    /** A request's time and how much the server's RSS grew meanwhile (its peak). */
    const measured = async <T>(request: () => Promise<T>) => {
      server.send('gc');
      await next();
      const before = rssOf();
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssOf());
      }, 5);
      const started = performance.now();
      const answer = await request();
      const ms = performance.now() - started;
      clearInterval(sampler);
      return { answer, ms: Math.round(ms), rss: ((peak - before) / MB).toFixed(1) };
    };
    const upload = async (name: string, bytes: Buffer, query: string) => {
      const body = new Uint8Array(bytes);
      const { answer, ms, rss } = await measured(async () => {
        const response = await fetch(`${target.base}/api/documents?${query}`, {
          method: 'POST',
          headers: { ...target.headers, 'content-type': 'application/octet-stream' },
          body,
        });
        if (response.status !== 201)
          throw new Error(`${name}: ${response.status} ${await response.text()}`);
        return (await response.json()) as { file_url: string };
      });
      report(name, {
        MB: (bytes.length / MB).toFixed(1),
        ms,
        'server RSS increase MB': rss,
        'budget MB': 40,
      });
      return answer;
    };
    /** A document's file downloaded to its last byte (the client keeps none of it). */
    const download = async (name: string, fileUrl: string) => {
      const {
        answer: bytes,
        ms,
        rss,
      } = await measured(async () => {
        const response = await fetch(`${target.base}${fileUrl}?download`, {
          headers: target.headers,
        });
        if (response.status !== 200 || !response.body)
          throw new Error(`${name}: ${response.status}`);
        let received = 0;
        for await (const chunk of response.body) received += chunk.byteLength;
        return received;
      });
      report(name, {
        MB: (bytes / MB).toFixed(1),
        ms,
        'server RSS increase MB': rss,
        'budget MB': 40,
      });
    };

    // The files are made first: a request waits on no making of one (an idle kept-alive
    // connection meanwhile was closed by the server as the next upload started on it).
    const bigImage = await sharp(noise(1800 * 1800 * 3), {
      raw: { width: 1800, height: 1800, channels: 3 },
    })
      .png({ compressionLevel: 0 })
      .toBuffer();
    const pdf10 = await pdf(1, bigImage);
    const photo5 = await photo(2600, 1950, 80);
    const photo12Sideways = await photo(4000, 3000, 80, true);
    const scan25 = await scan(14);
    const warmPdf = await pdf(1);
    const warmPhoto = await photo(64, 64, 90);

    // Warm-up of the thread and of both kinds of file: the thread started, pdf.js loaded.
    for (const body of [warmPdf, warmPhoto]) {
      const response = await fetch(`${target.base}/api/documents?title=warm&document_type=Other`, {
        method: 'POST',
        headers: target.headers,
        body: new Uint8Array(body),
      });
      if (response.status !== 201) throw new Error(`warm-up: ${response.status}`);
    }
    await upload('upload 10 MB PDF', pdf10, 'title=Report&document_type=Lab%20Report');
    await upload('upload 5 MB photo', photo5, 'title=Card&document_type=Insurance%20Card');
    await upload(
      'upload 12 MP photo, sideways',
      photo12Sideways,
      'title=Card&document_type=Insurance%20Card',
    );
    const scanned = await upload(
      'upload 25 MB scanned PDF',
      scan25,
      'title=Scan&document_type=Letter',
    );
    await download('download that 25 MB scanned PDF', scanned.file_url);
    server.send('stop');
    await new Promise((resolve) => server.once('exit', resolve));
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

  if (measures('archive')) {
    // A fresh account with 40 documents: 20 photos and 20 PDFs of about 0.5 MB each.
    const owner = await app.signUp('Ann Lee');
    const pdfBytes = await pdf(
      1,
      await sharp(noise(400 * 400 * 3), { raw: { width: 400, height: 400, channels: 3 } })
        .png({ compressionLevel: 0 })
        .toBuffer(),
    );
    let filesBytes = 0;
    for (let index = 0; index < 40; index += 1) {
      // Each file different, so each is a file of its own in the archive: a photo of its own
      // noise (a photo is stored re-encoded), a PDF with its own last line.
      const body =
        index % 2
          ? await photo(640, 480, 95)
          : Buffer.concat([pdfBytes, Buffer.from(`\n%${index}\n`)]);
      filesBytes += body.length;
      const response = await fetch(
        `${base}/api/documents?title=Paper%20${index}&document_type=Letter`,
        { method: 'POST', headers: owner, body: new Uint8Array(body) },
      );
      if (response.status !== 201) throw new Error(`archive upload: ${response.status}`);
    }
    // Its memory is not reported: the client here keeps the archive, for the import below.
    const started = performance.now();
    const exported = await fetch(`${base}/api/export`, { headers: owner });
    const chunks: Uint8Array[] = [];
    for await (const chunk of exported.body as AsyncIterable<Uint8Array>) chunks.push(chunk);
    const exportMs = performance.now() - started;
    const archive = Buffer.concat(chunks);
    if (exported.headers.get('content-type') !== 'application/zip')
      throw new Error(`export: ${exported.status} ${exported.headers.get('content-type')}`);
    report("'Download my data', 40 documents", {
      'files MB': (filesBytes / MB).toFixed(1),
      'archive MB': (archive.length / MB).toFixed(1),
      ms: Math.round(exportMs),
      'budget ms': 2000,
    });

    const target = await app.signUp('Ann Lee');
    const importStarted = performance.now();
    for (const query of ['?preview=true', '']) {
      const response = await fetch(`${base}/api/import${query}`, {
        method: 'POST',
        headers: { ...target, 'content-type': 'application/zip' },
        body: new Uint8Array(archive),
      });
      if (![200, 201].includes(response.status))
        throw new Error(`import${query}: ${response.status} ${await response.text()}`);
    }
    report('that archive imported (preview + import)', {
      ms: Math.round(performance.now() - importStarted),
      'budget ms': 60_000,
    });
  }

  if (measures('thumbnail')) {
    // Thumbnails on the thread, already started.
    const thread = documentDeriveThread(DEFAULT_MEMORY_PLAN);
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

  if (measures('text')) await measureText();

  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/documents-latest.json', `${JSON.stringify(lines, null, 2)}\n`);
  await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}

/**
 * The 23.4 MB scan uploaded to the product as `npm start` runs it (built first by `npm run
 * bench:documents`), and its text read by the product's text worker: how long, and the
 * server's memory (read from outside) at rest, at most while the text is read, right after,
 * and once the documents and text threads have been idle their time and ended.
 */
async function measureText() {
  const productDir = mkdtempSync(path.join(tmpdir(), 'kin-bench-documents-product-'));
  const product = await startProduct({
    dataDir: productDir,
    port: benchConfig.productPort,
    passcode: benchConfig.passcode,
    cpuProfileDir: null,
    nodeFlags: null,
  });
  const megabytes = (bytes: number) => Math.round(bytes / MB);
  try {
    const account = await signUp(
      product.url,
      { name: 'Tia Text', email: `text-${Date.now()}@example.com`, password: BENCH_PASSWORD },
      benchConfig.passcode,
    );
    const headers = {
      cookie: await signInCookie(product.url, account, benchConfig.passcode),
      origin: product.url,
    };
    const body = new Uint8Array(await scan(14));
    const atRest = product.rss();
    let peak = atRest;
    const sampler = setInterval(() => {
      peak = Math.max(peak, product.rss());
    }, 20);
    const response = await fetch(`${product.url}/api/documents?title=Scan&document_type=Letter`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/octet-stream' },
      body,
    });
    if (response.status !== 201) throw new Error(`text: upload ${response.status}`);
    const { id } = (await response.json()) as { id: string };
    const uploaded = performance.now();
    for (;;) {
      const answer = await fetch(`${product.url}/api/documents/${id}/text`, { headers });
      const { status } = (await answer.json()) as DocumentTextAnswer;
      if (status === 'done') break;
      if (status === 'failed') throw new Error('text: the scan could not be read');
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const readSeconds = (performance.now() - uploaded) / 1000;
    clearInterval(sampler);
    const afterText = product.rss();
    await new Promise((resolve) => setTimeout(resolve, DEFAULT_MEMORY_PLAN.jobIdleMs + 5_000));
    report("the scan's text read, 14 pages", {
      s: readSeconds.toFixed(1),
      'server RSS at rest MB': megabytes(atRest),
      'at most MB': megabytes(peak),
      'right after MB': megabytes(afterText),
      'threads idle and ended MB': megabytes(product.rss()),
    });
  } finally {
    await product.stop();
    rmSync(productDir, { recursive: true, force: true });
  }
}

await main();
