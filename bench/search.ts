/**
 * Search's budgets (issue #37), on its own (the full bench is too heavy to run beside it):
 * - search over a heavy user (21,000 records of every searchable type and 500 documents with
 *   their text, beside another account with as many),
 *   p50 of a one-word and a three-word query, through the product's search repository;
 * - what the index's upkeep adds to creating a record: to a create as the browser makes it
 *   (POST /api/visits to the product's app, the budget's measure) and, for comparison, to
 *   the record repository's insert alone, each with and without the search triggers;
 * - OCR of a one-page 300 dpi letter, uploaded to the product's app and read by its documents'
 *   text worker (as server.ts starts it), while the server's own thread answers a health
 *   check and the heavy user's timeline (their p99 measured during the OCR).
 * SQLite always; PostgreSQL too when BENCH_DATABASE_URL names a server to make a database
 * on. Run: `npx tsx bench/search.ts` (BENCH_ONLY=search|create|ocr for one part).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import sharp from 'sharp';
import { visitDefinition } from '../src/shared/records';
import { searchTerms } from '../src/shared/search';
import { ownAccess } from '../src/server/access/scope';
import { openPostgres, openSqlite, type Database } from '../src/server/db/database';
import { migrateToLatest } from '../src/server/db/migrate';
import { createFamilyMemberRepository } from '../src/server/family-members/family-member-repository';
import { createRecordRepository } from '../src/server/records/record-repository';
import { newId } from '../src/server/ids';
import { createSearchRepository } from '../src/server/search/search-repository';
import { startDocumentTextWorker } from '../src/server/documents/text/document-text';
import { openDocumentFile } from '../src/server/documents/document-files';
import { createLogger } from '../src/server/logger';
import { createThrowawayPostgres } from '../src/server/test/throwaway-postgres';
import { startBenchApp } from './app-server';
import { words as seedWords } from './words';

const only = process.env.BENCH_ONLY;
const RECORDS_PER_TABLE = 3_000;
const DOCUMENTS = 500;

/** The seed's own words (bench/seed.ts), and allergies', which it has none of. */
const words = { ...seedWords, substances: ['Penicillin', 'Peanuts', 'Pollen', 'Latex'] };
const prose =
  'Bring previous results and the list of current medications. Ask about the dosage, ' +
  'side effects and the next appointment.';

/** A letter's text, as a document's text layer or its OCR gives it: about 1,400 characters. */
const letter = (i: number) =>
  [
    `${pick(words.offices, i)} - ${pick(words.visits, i + 2)}`,
    `Dear ${pick(words.doctors, i)},`,
    `Thank you for referring your patient for ${pick(words.conditions, i + 1).toLowerCase()}.`,
    `We reviewed ${pick(words.medications, i + 3)} and the other current medications.`,
    'The examination shows no fracture and no ligament tear. There is a small joint',
    'effusion, which should settle with rest. We suggest physiotherapy for six weeks and',
    'a follow-up visit if pain persists. Please do not hesitate to contact us.',
    prose,
    prose,
    `Yours sincerely, ${pick(words.doctors, i + 4)}, ${pick(words.offices, i + 1)}`,
  ].join('\n');

const pick = <T>(items: readonly T[], index: number) => items[index % items.length] as T;
const day = (index: number) =>
  new Date(Date.UTC(2010, 0, 1) + (index % 5_000) * 86_400_000).toISOString().slice(0, 10);

async function addUser(database: Database, name: string): Promise<string> {
  const { db } = database;
  const id = newId();
  const now = new Date().toISOString();
  const unverified = database.engine === 'postgres' ? false : 0;
  await sql`insert into "user" (id, name, email, "emailVerified", "createdAt", "updatedAt", vaccine_schedule)
    values (${id}, ${name}, ${`${id}@bench.invalid`}, ${unverified}, ${now}, ${now}, 'none')`.execute(
    db,
  );
  return id;
}

/** Every searchable record type, RECORDS_PER_TABLE each, for a user and their four members. */
async function seed(database: Database, userId: string, perTable: number) {
  const { db } = database;
  const now = new Date().toISOString();
  const members: string[] = [];
  for (let index = 0; index < 4; index += 1) {
    const id = newId();
    members.push(id);
    await db
      .insertInto('family_members')
      .values({
        id,
        user_id: userId,
        name: `Member ${index}`,
        color: '#20c997',
        created_at: now,
        updated_at: now,
      } as never)
      .execute();
  }
  const rows: Record<string, (i: number) => Record<string, unknown>> = {
    visits: (i) => ({
      visit_name: pick(words.visits, i),
      doctor_name: pick(words.doctors, i),
      visit_date: `${day(i)}T10:00:00.000Z`,
      notes: i % 3 ? prose : null,
    }),
    medications: (i) => ({
      medication_name: pick(words.medications, i),
      prescribed_doctor: pick(words.doctors, i + 1),
      start_date: day(i),
      notes: i % 4 ? null : prose,
    }),
    shots: (i) => ({
      shot_name: pick(words.shots, i),
      date_administered: day(i),
      location: 'City Hospital',
    }),
    notes: (i) => ({ title: pick(words.notes, i), note_date: day(i), content: prose }),
    conditions: (i) => ({
      condition_name: pick(words.conditions, i),
      diagnosis_date: day(i),
      notes: i % 2 ? prose : null,
      is_family_history: 0,
    }),
    allergies: (i) => ({
      substance: pick(words.substances, i),
      reaction: 'Hives',
      status: 'Active',
      noted_date: day(i),
    }),
    insurance: (i) => ({
      provider_name: pick(words.providers, i),
      policy_number: `P-${i}`,
      status: 'current',
      insurance_type: 'Medical',
    }),
  };
  const flag =
    database.engine === 'postgres'
      ? (value: unknown) => (value === 1 ? true : value)
      : (value: unknown) => value;
  for (const [table, make] of Object.entries(rows)) {
    const batch: Record<string, unknown>[] = [];
    for (let i = 0; i < perTable; i += 1) {
      const row = Object.fromEntries(Object.entries(make(i)).map(([k, v]) => [k, flag(v)]));
      batch.push({
        id: newId(),
        user_id: userId,
        family_member_id: i % 6 ? pick(members, i) : null,
        ...row,
        created_at: now,
        updated_at: now,
      });
      if (batch.length === 500 || i === perTable - 1) {
        await db
          .insertInto(table as never)
          .values(batch as never)
          .execute();
        batch.length = 0;
      }
    }
  }
  // Documents with their text read, as the documents' text worker leaves them.
  for (let i = 0; i < DOCUMENTS; i += 1) {
    const id = newId();
    await db
      .insertInto('documents')
      .values({
        id,
        user_id: userId,
        family_member_id: i % 6 ? pick(members, i) : null,
        title: `${pick(['Referral', 'Lab report', 'Letter', 'Discharge summary'], i)} ${i}`,
        document_type: pick(['Referral', 'Lab Report', 'Letter', 'Other'], i),
        document_date: day(i),
        file_name: `letter-${i}.pdf`,
        mime_type: 'application/pdf',
        size_bytes: 120_000,
        sha256: id,
        created_at: now,
        updated_at: now,
      } as never)
      .execute();
    await db
      .insertInto('document_texts')
      .values({
        document_id: id,
        user_id: userId,
        status: 'done',
        text: letter(i),
        pages: 1,
        attempts: 1,
        created_at: now,
        updated_at: now,
      } as never)
      .execute();
  }
  return members;
}

function p(values: number[], q: number) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

async function benchSearch(database: Database, label: string) {
  const heavy = await addUser(database, 'Heavy');
  const other = await addUser(database, 'Other');
  const started = performance.now();
  await seed(database, heavy, RECORDS_PER_TABLE);
  await seed(database, other, RECORDS_PER_TABLE);
  if (database.engine === 'postgres') await sql`analyze`.execute(database.db);
  console.log(
    `${label}: seeded ${2 * 7 * RECORDS_PER_TABLE} records and ${2 * DOCUMENTS} documents with text in ${Math.round(performance.now() - started)} ms`,
  );
  const search = createSearchRepository(database.db, database.engine);
  for (const q of ['amox', 'blood pressure dosage', 'dr patel follow']) {
    const terms = searchTerms(q);
    const times: number[] = [];
    let found = 0;
    for (let run = 0; run < 120; run += 1) {
      const t0 = performance.now();
      const answer = await search.search(ownAccess(heavy), q, terms, { limit: 50 });
      times.push(performance.now() - t0);
      found = answer.groups.reduce((sum, group) => sum + group.results.length, 0);
    }
    const measured = times.slice(20);
    console.log(
      `${label}: search "${q}" (${terms.length} word${terms.length > 1 ? 's' : ''}, ${found} shown) p50 ${p(measured, 0.5).toFixed(2)} ms, p99 ${p(measured, 0.99).toFixed(2)} ms (budget p50 < 30 ms)`,
    );
  }
  if (only !== 'search') await benchCreate(database, label, heavy);
}

async function benchCreate(database: Database, label: string, userId: string) {
  const members = createFamilyMemberRepository(database.db);
  const visits = createRecordRepository(database.db, visitDefinition, members);
  const input = {
    visit_name: 'Check-up',
    doctor_name: 'Dr. Patel',
    visit_date: new Date(Date.now() - 30 * 86_400_000).toISOString(),
    office_name: 'Riverside Clinic',
    notes: 'Bring the list of current medications.',
  };
  const values = visitDefinition.schema.parse(input) as Record<string, unknown>;
  const appDir = mkdtempSync(path.join(tmpdir(), 'kin-bench-create-'));
  const app = await startBenchApp(database, appDir);
  const body = JSON.stringify(input);
  const requestHeaders = { ...app.headers, 'content-type': 'application/json' };
  const ways = {
    // The record repository's insert alone, in process.
    insert: () => visits.create(ownAccess(userId), values),
    // A create as the browser makes it: the request, its session, its checks and its answer.
    request: async () => {
      const response = await fetch(`${app.base}/api/visits`, {
        method: 'POST',
        headers: requestHeaders,
        body,
      });
      await response.arrayBuffer();
      if (response.status !== 201) throw new Error(`create: ${response.status}`);
    },
  };
  const run = async (create: () => Promise<unknown>, count: number) => {
    const times: number[] = [];
    for (let i = 0; i < count; i += 1) {
      const t0 = performance.now();
      await create();
      times.push(performance.now() - t0);
    }
    return p(times.slice(50), 0.5);
  };
  const dropTrigger =
    database.engine === 'postgres'
      ? ['drop trigger search_visits_changed on visits']
      : [
          'drop trigger search_visits_added',
          'drop trigger search_visits_changed',
          'drop trigger search_visits_removed',
        ];
  for (const [way, create] of Object.entries(ways)) {
    // Alternated, so that a busy moment of the machine falls on both.
    const withIndex: number[] = [];
    const without: number[] = [];
    for (let round = 0; round < 3; round += 1) {
      withIndex.push(await run(create, 400));
      for (const statement of dropTrigger) await sql.raw(statement).execute(database.db);
      without.push(await run(create, 400));
      await sql`delete from search_sources where record_table = 'visits'`.execute(database.db);
      await migrateToLatest(database.db);
    }
    const a = p(withIndex, 0.5);
    const b = p(without, 0.5);
    console.log(
      `${label}: create a visit (${way === 'insert' ? 'the insert alone' : 'POST /api/visits'}) p50 ${a.toFixed(3)} ms with the search index, ${b.toFixed(3)} ms without: +${(((a - b) / b) * 100).toFixed(1)}%${way === 'request' ? ' (budget < 15%)' : ''}`,
    );
  }
  await app.close();
  rmSync(appDir, { recursive: true, force: true });
}

async function benchOcr() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kin-bench-ocr-'));
  const lines = [
    'Riverside Clinic - Department of Radiology',
    '12 Harbour Road, Springfield',
    '',
    'Dear Dr. Patel,',
    'Thank you for referring Mia Lee, born 4 March 2018, for an MRI of the left knee.',
    'The magnetic resonance imaging shows no fracture and no ligament tear.',
    'There is a small joint effusion, which should settle with rest.',
    'We suggest physiotherapy for six weeks and a follow-up visit if pain persists.',
    'Please do not hesitate to contact us with any questions.',
    '',
    'Yours sincerely,',
    'Dr. Ana Rossi, Consultant Radiologist',
  ];
  const text = lines.map((line, i) => `<text x="300" y="${450 + i * 110}">${line}</text>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="2550" height="3300"><rect width="100%" height="100%" fill="white"/><g font-family="DejaVu Serif, serif" font-size="50" fill="black">${text}</g></svg>`;
  const letter = await sharp(Buffer.from(svg)).greyscale().png().toBuffer();

  // The product's app and its documents' text worker, wired as server.ts wires them, for the
  // heavy user (every searchable type, RECORDS_PER_TABLE each, on their timeline).
  const database = openSqlite(path.join(dataDir, 'kin-health.db'));
  await migrateToLatest(database.db);
  const app = await startBenchApp(database, dataDir);
  await seed(database, app.userId, RECORDS_PER_TABLE);
  const stopReading = startDocumentTextWorker({
    db: database.db,
    engine: database.engine,
    openFile: (documentId) => openDocumentFile(database, documentId),
    dataDir,
    languages: ['eng'],
    logger: createLogger('warn'),
  });
  const get = async (route: string) => {
    const response = await fetch(`${app.base}${route}`, { headers: app.headers });
    const body = await response.text();
    if (response.status !== 200) throw new Error(`${route}: ${response.status} ${body}`);
    return body;
  };
  const timelinePage = JSON.parse(await get('/api/timeline')) as { events: unknown[] };
  if (timelinePage.events.length === 0) throw new Error('the timeline is empty');

  /**
   * A letter uploaded as the browser uploads it, until its text is read: seconds taken, and
   * the server thread's answers to a health check and to the timeline's first page, each
   * asked every 20 ms meanwhile.
   */
  const readLetter = async () => {
    const latencies = { health: [] as number[], timeline: [] as number[] };
    let reading = true;
    const probe = async (route: string, into: number[]) => {
      while (reading) {
        const t0 = performance.now();
        await get(route);
        into.push(performance.now() - t0);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const probes = [
      probe('/api/health', latencies.health),
      probe('/api/timeline', latencies.timeline),
    ];
    const t0 = performance.now();
    const uploaded = await fetch(
      `${app.base}/api/documents?title=Letter&document_type=Letter&file_name=letter.png`,
      { method: 'POST', headers: app.headers, body: new Uint8Array(letter) },
    );
    if (uploaded.status !== 201) throw new Error(`upload: ${uploaded.status}`);
    const { id } = (await uploaded.json()) as { id: string };
    let answer: { status: string; text?: string } = { status: 'pending' };
    while (answer.status !== 'done' && answer.status !== 'failed') {
      await new Promise((resolve) => setTimeout(resolve, 100));
      answer = JSON.parse(await get(`/api/documents/${id}/text`)) as typeof answer;
    }
    const seconds = (performance.now() - t0) / 1000;
    reading = false;
    await Promise.all(probes);
    return { seconds, text: answer.text ?? '', latencies };
  };
  const first = await readLetter();
  const second = await readLetter();
  await stopReading();
  await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
  const correct = /magnetic resonance imaging/i.test(first.text) && first.text === second.text;
  console.log(
    `OCR of a one-page 300 dpi letter (2550×3300), uploaded until its text is read: ${first.seconds.toFixed(1)} s with the thread's start, ${second.seconds.toFixed(1)} s once started (budget < 15 s); text read ${correct ? 'correctly' : 'WRONG'}`,
  );
  for (const [name, during] of Object.entries({ first, second })) {
    for (const [route, times] of Object.entries(during.latencies)) {
      console.log(
        `${route === 'health' ? '/api/health' : "/api/timeline (the heavy user's first page)"} during the ${name} OCR: p50 ${p(times, 0.5).toFixed(1)} ms, p99 ${p(times, 0.99).toFixed(1)} ms over ${times.length} requests (budget p99 < 50 ms)`,
      );
    }
  }
}

async function main() {
  if (!only || only === 'search' || only === 'create') {
    const dir = mkdtempSync(path.join(tmpdir(), 'kin-bench-search-'));
    const sqlite = openSqlite(path.join(dir, 'bench.db'));
    await migrateToLatest(sqlite.db);
    await benchSearch(sqlite, 'SQLite');
    await sqlite.close();
    rmSync(dir, { recursive: true, force: true });
    if (process.env.BENCH_DATABASE_URL) {
      const throwaway = await createThrowawayPostgres(process.env.BENCH_DATABASE_URL, 'kin_bench');
      const postgres = openPostgres(throwaway.url);
      try {
        await migrateToLatest(postgres.db);
        await benchSearch(postgres, 'PostgreSQL');
      } finally {
        await postgres.close();
        await throwaway.drop();
      }
    }
  }
  if (!only || only === 'ocr') await benchOcr();
}

await main();
