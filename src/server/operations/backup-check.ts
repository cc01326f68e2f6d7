/**
 * The checks a backup's copy passes before it is kept (operations/backup.ts): SQLite's own
 * `PRAGMA integrity_check`, and every table's row count against the snapshot it was copied
 * from. Plain functions of a database file, so that backup-check-worker.ts runs them on a
 * thread of its own.
 */
import SQLite from 'better-sqlite3';

/** The tables of a database (all of them, SQLite's own included) and their row counts. */
export function countRows(db: SQLite.Database): Record<string, number> {
  const names = db
    .prepare(`select name from sqlite_schema where type = 'table' order by name`)
    .pluck()
    .all() as string[];
  const counts: Record<string, number> = {};
  for (const name of names) {
    const quoted = `"${name.replaceAll('"', '""')}"`;
    counts[name] = db.prepare(`select count(*) from ${quoted}`).pluck().get() as number;
  }
  return counts;
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
    copy = new SQLite(file, { readonly: true, fileMustExist: true });
    return integrityProblem(copy) ?? describeCountMismatch(expected, countRows(copy));
  } catch (error) {
    return `it could not be read (${error instanceof Error ? error.message : String(error)})`;
  } finally {
    copy?.close();
  }
}
