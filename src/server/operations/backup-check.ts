/**
 * The checks a backup's copy passes before it is kept (operations/backup.ts): SQLite's own
 * `PRAGMA integrity_check`, and every table's row count against the snapshot it was copied
 * from. Plain functions of a database file, so that backup-check-worker.ts runs them on a
 * thread of its own.
 */
import SQLite from 'better-sqlite3';

/**
 * A connection that reads the whole database once (a backup's row counts and copy, the
 * copy's check) keeps 2 MB of pages, not better-sqlite3's 16 MB: no page is read twice to
 * gain from more, and the memory a cache has held stays with the server's allocator after
 * the connection closes (decision 0083: a backup left the server 20 MB larger for good).
 */
export function readingOnce(db: SQLite.Database): SQLite.Database {
  db.pragma('cache_size = -2048');
  return db;
}

/** How many rows a table is counted by at a time: a few milliseconds of reading, cold. */
export const ROWS_PER_COUNT = 5_000;

/**
 * The tables of a database (all of them, SQLite's own included) counted a part at a time: a
 * step (`yield`) after each ROWS_PER_COUNT rows, the counts at the end. A table with rowids
 * is walked by them (each part from where the last ended, however sparse the rowids); one
 * without (`WITHOUT ROWID`) is counted at once.
 */
function* countingSteps(db: SQLite.Database): Generator<void, Record<string, number>> {
  const names = db
    .prepare(`select name from sqlite_schema where type = 'table' order by name`)
    .pluck()
    .all() as string[];
  const withoutRowid = new Set(
    (db.pragma('table_list') as { schema: string; name: string; wr: number }[])
      .filter((table) => table.schema === 'main' && table.wr === 1)
      .map((table) => table.name),
  );
  const counts: Record<string, number> = {};
  for (const name of names) {
    const quoted = `"${name.replaceAll('"', '""')}"`;
    if (withoutRowid.has(name)) {
      counts[name] = db.prepare(`select count(*) from ${quoted}`).pluck().get() as number;
      yield;
      continue;
    }
    const part = (from: string) =>
      db
        .prepare(
          `select count(*) as rows, max(rowid) as last from ` +
            `(select rowid from ${quoted} ${from} order by rowid limit ${ROWS_PER_COUNT})`,
        )
        .safeIntegers(true);
    const first = part('');
    const next = part('where rowid > ?');
    let counted = 0;
    let answer = first.get() as { rows: bigint; last: bigint | null };
    for (;;) {
      counted += Number(answer.rows);
      yield;
      if (answer.rows < ROWS_PER_COUNT || answer.last === null) break;
      answer = next.get(answer.last) as { rows: bigint; last: bigint | null };
    }
    counts[name] = counted;
  }
  return counts;
}

/** The tables of a database (all of them, SQLite's own included) and their row counts. */
export function countRows(db: SQLite.Database): Record<string, number> {
  const steps = countingSteps(db);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * The same counts, the thread given back to the server after each part: a database the
 * system has not cached (a small box's) is read from disk, 1.3 s for 250 MB, which at once
 * held up every request meanwhile (decision 0083).
 */
export async function countRowsInTurns(db: SQLite.Database): Promise<Record<string, number>> {
  const steps = countingSteps(db);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The first problem `PRAGMA integrity_check` reports, or null when it says ok. */
export function integrityProblem(db: SQLite.Database): string | null {
  const rows = db.pragma('integrity_check', { simple: false }) as { integrity_check: string }[];
  const messages = rows.map((row) => row.integrity_check);
  return messages.length === 1 && messages[0] === 'ok'
    ? null
    : messages.slice(0, 3).join('; ') || 'no answer';
}

export function describeCountMismatch(
  expected: Record<string, number>,
  actual: Record<string, number>,
): string | null {
  const problems: string[] = [];
  for (const name of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
    if (expected[name] !== actual[name]) {
      problems.push(`${name}: ${actual[name] ?? 'missing'} rows, expected ${expected[name] ?? 0}`);
    }
  }
  return problems.length ? `row counts differ (${problems.slice(0, 5).join(', ')})` : null;
}

/** Opens a written copy and checks it; the problem found, or null. */
export function verifyCopy(file: string, expected: Record<string, number>): string | null {
  let copy: SQLite.Database | undefined;
  try {
    copy = readingOnce(new SQLite(file, { readonly: true, fileMustExist: true }));
    return integrityProblem(copy) ?? describeCountMismatch(expected, countRows(copy));
  } catch (error) {
    return `it could not be read (${error instanceof Error ? error.message : String(error)})`;
  } finally {
    copy?.close();
  }
}
