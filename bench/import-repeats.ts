/**
 * `npm run build`, then `tsx bench/import-repeats.ts`: an archive ('Download my data') whose
 * ten document rows all name one large PDF (24 MB: pages of text, each with a photo of noise
 * that does not compress), imported into a fresh account of the product as `npm start` runs
 * it. Measured from outside the server's process: the import's time and the CPU time the
 * process spent (its threads' included), the bytes it wrote (/proc/{pid}/io: what reached
 * the disk, and what it asked to write), its memory at rest and at most; then the same once the documents' text is read. Decision 0049.
 *
 * BENCH_PORT (default 4401) is the port the product listens on; BENCH_ROWS (default 10) the
 * rows naming the file.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, type Dirent } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { DocumentPage, DocumentTextAnswer } from '../src/shared/documents';
import { pdfBytes } from '../src/server/documents/fixtures/sample-files';
import { repeatingArchive } from '../src/server/test/export-files';
import { benchConfig } from './config';
import { startProduct, type ServerProcess } from './processes';
import { BENCH_PASSWORD, signInCookie, signUp } from './seed';

const MB = 1024 * 1024;
const ROWS = Number(process.env.BENCH_ROWS ?? 10);

/** Random bytes (incompressible), so that a file's size is what it says. */
const noise = (bytes: number) => {
  const data = Buffer.allocUnsafe(bytes);
  for (let i = 0; i < bytes; i += 4) data.writeUInt32LE((Math.random() * 2 ** 32) >>> 0, i);
  return data;
};

/** A PDF of about 24 MB: four pages of text, each with a 2,500 × 2,500 photo of noise. */
async function largePdf(): Promise<Buffer> {
  const side = 2500;
  const photos = await Promise.all(
    Array.from({ length: 4 }, () =>
      sharp(noise(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
        .jpeg({ quality: 95 })
        .toBuffer(),
    ),
  );
  return pdfBytes((doc) => {
    photos.forEach((photo, index) => {
      if (index) doc.addPage();
      doc.fontSize(14).text(`Scan of the discharge letter, page ${index + 1}`);
      doc.image(photo, 50, 100, { width: 500 });
    });
  });
}

/** What the process has written: to the disk, and asked to write (tmpfs and pipes too). */
function written(pid: number) {
  const io = readFileSync(`/proc/${pid}/io`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}: (\\d+)`, 'm').exec(io)?.[1] ?? 0);
  return { disk: field('write_bytes'), asked: field('wchar') };
}

/** The most the server holds while `work` runs, sampled every 20 ms. */
async function peakWhile<T>(product: ServerProcess, work: () => Promise<T>) {
  let peak = product.rss();
  const sampler = setInterval(() => (peak = Math.max(peak, product.rss())), 20);
  try {
    const result = await work();
    return { result, peak: Math.max(peak, product.rss()) };
  } finally {
    clearInterval(sampler);
  }
}

async function main() {
  const pdf = await largePdf();
  const archive = await repeatingArchive(pdf, ROWS, 10);
  process.stdout.write(
    `a ${(pdf.byteLength / MB).toFixed(1)} MB PDF named by ${ROWS} rows: an archive of ${(archive.byteLength / MB).toFixed(1)} MB\n`,
  );
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kin-bench-import-repeats-'));
  const product = await startProduct({
    dataDir,
    port: benchConfig.productPort,
    passcode: benchConfig.passcode,
    cpuProfileDir: null,
    nodeFlags: null,
  });
  try {
    const account = await signUp(
      product.url,
      { name: 'Ida Import', email: `import-${Date.now()}@example.com`, password: BENCH_PASSWORD },
      benchConfig.passcode,
    );
    const headers = {
      cookie: await signInCookie(product.url, account, benchConfig.passcode),
      origin: product.url,
    };
    const atRest = product.rss();
    const before = written(product.pid);
    const cpuBefore = product.cpuSeconds();
    const started = performance.now();
    const imported = await peakWhile(product, async () => {
      const response = await fetch(`${product.url}/api/import`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/zip' },
        body: new Uint8Array(archive),
      });
      return { status: response.status, body: await response.text() };
    });
    const importSeconds = (performance.now() - started) / 1000;
    const afterImport = written(product.pid);
    const cpuImport = product.cpuSeconds() - cpuBefore;
    if (imported.result.status !== 201) {
      // Refused: how soon, and what it cost.
      const refused = {
        rows: ROWS,
        status: imported.result.status,
        answer: imported.result.body,
        'import s': importSeconds.toFixed(1),
        'server CPU s': cpuImport.toFixed(1),
        'written to disk MB': ((afterImport.disk - before.disk) / MB).toFixed(0),
        'RSS at most MB': Math.round(imported.peak / MB),
      };
      for (const [name, value] of Object.entries(refused)) {
        process.stdout.write(`${name.padEnd(30)} ${value}\n`);
      }
      return;
    }
    const page = (await (
      await fetch(`${product.url}/api/documents?limit=100`, { headers })
    ).json()) as DocumentPage;
    const stored = storedBytes(dataDir);

    // The documents' text, read by the text worker in the background.
    const reading = await peakWhile(product, async () => {
      for (;;) {
        const answers = await Promise.all(
          page.documents.map(async (document) => {
            const answer = await fetch(`${product.url}/api/documents/${document.id}/text`, {
              headers,
            });
            return ((await answer.json()) as DocumentTextAnswer).status;
          }),
        );
        if (answers.every((status) => status === 'done' || status === 'failed')) return answers;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    });
    const textSeconds = (performance.now() - started) / 1000;
    const afterText = written(product.pid);
    const cpuText = product.cpuSeconds() - cpuBefore;
    const line = {
      rows: ROWS,
      'import s': importSeconds.toFixed(1),
      'server CPU s': cpuImport.toFixed(1),
      'written to disk MB': ((afterImport.disk - before.disk) / MB).toFixed(0),
      'asked to write MB': ((afterImport.asked - before.asked) / MB).toFixed(0),
      'RSS at rest MB': Math.round(atRest / MB),
      'RSS at most MB': Math.round(imported.peak / MB),
      documents: page.total,
      'files kept MB': (stored / MB).toFixed(1),
      'text read, from the start s': textSeconds.toFixed(1),
      'text: server CPU s': cpuText.toFixed(1),
      'text: written to disk MB': ((afterText.disk - before.disk) / MB).toFixed(0),
      'text: RSS at most MB': Math.round(reading.peak / MB),
      'process RSS high-water MB': Math.round(product.peakRss() / MB),
      texts: reading.result.join(' '),
    };
    for (const [name, value] of Object.entries(line)) {
      process.stdout.write(`${name.padEnd(30)} ${value}\n`);
    }
  } finally {
    await product.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The bytes of the documents' files kept under the data folder (their temporary ones aside). */
function storedBytes(dataDir: string): number {
  let total = 0;
  const walk = (dir: string) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else total += statSync(full).size;
    }
  };
  walk(path.join(dataDir, 'documents'));
  return total;
}

await main();
