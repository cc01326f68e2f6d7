/**
 * The product's app on a fresh SQLite data directory, in a process of its own, for
 * bench/documents.ts to upload to while it reads this process's memory from outside (the
 * server's RSS alone, none of the client's). Tells its parent where it listens and whom it
 * signed up; collects its garbage when asked, before a measure.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openSqlite } from '../src/server/db/database';
import { migrateToLatest } from '../src/server/db/migrate';
import { startBenchApp } from './app-server';

const dataDir = mkdtempSync(path.join(tmpdir(), 'kin-bench-documents-server-'));
const database = openSqlite(path.join(dataDir, 'kin-health.db'));
await migrateToLatest(database.db);
const app = await startBenchApp(database, dataDir);

process.on('message', async (message) => {
  if (message === 'gc') {
    global.gc?.();
    process.send?.('collected');
  }
  if (message === 'stop') {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  }
});
process.send?.({ base: app.base, headers: app.headers });
