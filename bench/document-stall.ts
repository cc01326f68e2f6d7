/**
 * `tsx bench/document-stall.ts`: issue #49's reproductions of one account's documents
 * stalling another's, against the product as `npm start` runs it (its build, its flags, its
 * threads), on a fresh SQLite data directory, while /api/health is asked every 10 ms:
 *
 * - documents thread: Mallory uploads a 24 MB PDF of 1.4 million empty objects and no
 *   cross-reference table; 10 s later Ada uploads a photo (PNG) and a one-page PDF. Each
 *   upload's answer, its time, and whether it has a thumbnail;
 * - text thread: Mallory uploads three PDFs of 10,000 blank pages (0.9 MB each), then Ada a
 *   one-page typed PDF. How long until Ada's text is read, and what Mallory's first text is
 *   when it is (its pages read, its time), within BENCH_TEXT_SECONDS (default 240).
 *
 * BENCH_PRODUCT_DIR runs another checkout's build (its `dist/`, built beforehand), for a
 * figure before a change; BENCH_PORT moves the server's port (bench/config.ts);
 * BENCH_STALL=documents or text runs one part (text-objects: the text thread on the 24 MB
 * PDF, then Ada's typed one); BENCH_KEEP=1 keeps the data directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { blankPagesPdf, manyObjectsPdf } from '../src/server/documents/fixtures/hostile-pdfs';
import { samplePdf } from '../src/server/documents/fixtures/sample-files';
import type { DocumentTextAnswer } from '../src/shared/documents';
import { benchConfig } from './config';
import { askHealth, type HealthLatencies } from './import-stall';
import { startProduct, type ServerProcess } from './processes';
import { account, textOf, upload, type Account, type Uploaded } from './document-client';

const textSeconds = Number(process.env.BENCH_TEXT_SECONDS ?? 240);
const MB = 1024 * 1024;
/** When Ada uploads, after Mallory began hers. */
const ADA_AFTER_MS = 10_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const line = (text: string) => process.stdout.write(`${text}\n`);
const healthLine = (name: string, health: HealthLatencies) =>
  line(
    `  /api/health ${name}: p50 ${health.p50Ms.toFixed(1)} ms, p99 ${health.p99Ms.toFixed(1)} ms, max ${health.maxMs.toFixed(1)} ms (${health.checks} checks)`,
  );
const uploadLine = (result: Uploaded) =>
  line(
    `  ${result.what}: ${result.status} in ${result.seconds.toFixed(1)} s${
      result.thumbnail === undefined ? '' : result.thumbnail ? ', thumbnail' : ', no thumbnail'
    }${result.message ? ` ('${result.message}')` : ''}`,
  );

async function documentsThread(product: ServerProcess, mallory: Account, ada: Account) {
  line('documents thread: a 24 MB PDF of 1.4 million empty objects, then a photo and a PDF');
  const objects = manyObjectsPdf(1_400_000);
  const photo = await sharp({
    create: { width: 1200, height: 900, channels: 3, background: '#20c997' },
  })
    .png()
    .toBuffer();
  const letter = await samplePdf();
  let peak = product.rss();
  const sampler = setInterval(() => (peak = Math.max(peak, product.rss())), 50);
  const uploads = Promise.all([
    upload(product, mallory, `objects.pdf (${(objects.length / MB).toFixed(1)} MB)`, objects),
    // Once Mallory's file is in and its parsing under way.
    sleep(ADA_AFTER_MS).then(() => upload(product, ada, 'photo.png', photo)),
    sleep(ADA_AFTER_MS).then(() => upload(product, ada, 'letter.pdf', letter)),
  ]);
  const health = await askHealth(product.url, uploads);
  clearInterval(sampler);
  for (const result of await uploads) uploadLine(result);
  healthLine('meanwhile', health);
  line(`  server RSS at most ${Math.round(peak / MB)} MB`);
}

async function textThread(product: ServerProcess, mallory: Account, ada: Account) {
  line('text thread: three PDFs of 10,000 blank pages, then a one-page typed PDF');
  const blank = blankPagesPdf(10_000);
  const blanks: Uploaded[] = [];
  for (let copy = 1; copy <= 3; copy += 1) {
    blanks.push(await upload(product, mallory, `blank-${copy}.pdf`, blank));
  }
  const typed = await upload(product, ada, 'typed.pdf', await samplePdf());
  for (const result of [...blanks, typed]) uploadLine(result);
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  let adaDone: number | undefined;
  let malloryFirst: { seconds: number; answer: DocumentTextAnswer } | undefined;
  const watching = (async () => {
    while (seconds() < textSeconds && (adaDone === undefined || !malloryFirst)) {
      if (adaDone === undefined && (await textOf(product, ada, typed.id!)).status === 'done') {
        adaDone = seconds();
      }
      if (!malloryFirst) {
        const answer = await textOf(product, mallory, blanks[0]!.id!);
        if (answer.status === 'done' || answer.status === 'failed') {
          malloryFirst = { seconds: seconds(), answer };
        }
      }
      await sleep(250);
    }
  })();
  const health = await askHealth(product.url, watching);
  line(
    `  Ada's text: ${adaDone === undefined ? `not read after ${textSeconds} s` : `read ${adaDone.toFixed(1)} s after her upload`}`,
  );
  line(
    `  Mallory's first: ${
      malloryFirst
        ? `${malloryFirst.answer.status} after ${malloryFirst.seconds.toFixed(1)} s, ${
            malloryFirst.answer.pagesRead ?? 'all'
          } of ${malloryFirst.answer.pages ?? 10_000} pages read`
        : `still being read after ${textSeconds} s`
    }`,
  );
  healthLine('meanwhile', health);
}

async function textOfObjects(product: ServerProcess, mallory: Account, ada: Account) {
  line('text thread: the 24 MB PDF of 1.4 million empty objects, then a one-page typed PDF');
  const objects = await upload(product, mallory, 'objects.pdf', manyObjectsPdf(1_400_000));
  const typed = await upload(product, ada, 'typed.pdf', await samplePdf());
  for (const result of [objects, typed]) uploadLine(result);
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  const settled: Record<string, string> = {};
  const watching = (async () => {
    while (seconds() < textSeconds && Object.keys(settled).length < 2) {
      for (const [who, result] of [
        [mallory, objects],
        [ada, typed],
      ] as const) {
        if (settled[result.what]) continue;
        const answer = await textOf(product, who, result.id!);
        if (answer.status === 'done' || answer.status === 'failed') {
          settled[result.what] = `${answer.status} after ${seconds().toFixed(1)} s`;
        }
      }
      await sleep(250);
    }
  })();
  const health = await askHealth(product.url, watching);
  for (const result of [objects, typed]) {
    line(`  ${result.what}'s text: ${settled[result.what] ?? `not read after ${textSeconds} s`}`);
  }
  healthLine('meanwhile', health);
}

async function main() {
  if (process.env.BENCH_PRODUCT_DIR) process.chdir(process.env.BENCH_PRODUCT_DIR);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'kin-bench-stall-'));
  const product = await startProduct({
    dataDir,
    port: benchConfig.productPort,
    passcode: benchConfig.passcode,
    cpuProfileDir: null,
    nodeFlags: null,
  });
  let failed = false;
  try {
    const mallory = await account(product, 'Mallory');
    const ada = await account(product, 'Ada');
    healthLine('idle, before', await askHealth(product.url, sleep(5_000)));
    const parts = (process.env.BENCH_STALL ?? 'documents,text').split(',');
    if (parts.includes('documents')) await documentsThread(product, mallory, ada);
    if (parts.includes('text')) await textThread(product, mallory, ada);
    if (parts.includes('text-objects')) await textOfObjects(product, mallory, ada);
    line(
      `load average ${os
        .loadavg()
        .map((load) => load.toFixed(1))
        .join(' ')}`,
    );
  } catch (error) {
    // The data directory is kept, for its server's log.
    failed = true;
    line(`the server's log: ${path.join(dataDir, 'product-server.log')}`);
    throw error;
  } finally {
    await product.stop();
    if (!failed && !process.env.BENCH_KEEP) rmSync(dataDir, { recursive: true, force: true });
    else line(`data directory kept: ${dataDir}`);
  }
}

await main();
