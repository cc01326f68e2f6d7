/**
 * Where uploads arrive on PostgreSQL (upload-spool.ts): a folder of the process's own,
 * 0700, never one someone else made first, and folders left by stopped processes removed.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useTestServer } from '../test/harness';
import { documentStoreOf } from './document-files';
import { makeSpoolFolder, removeLeftSpoolFolders, uploadSpoolFolder } from './upload-spool';

describe('the upload spool folder', () => {
  const server = useTestServer();
  let parent: string;
  beforeEach(() => {
    parent = mkdtempSync(path.join(tmpdir(), 'kin-spool-test-'));
  });
  afterEach(() => {
    rmSync(parent, { recursive: true, force: true });
  });

  it("is, on PostgreSQL, a folder of the server process's own (0700), not one shared by all", async () => {
    const store = documentStoreOf(server.database);
    const folder = path.dirname(await store.incomingFile());
    const stats = statSync(folder);
    expect(stats.uid).toBe(process.getuid!());
    expect(stats.mode & 0o777).toBe(0o700);
    if (server.database.engine !== 'postgres') return; // beside the documents, in DATA_DIR
    expect(folder).not.toBe(path.join(tmpdir(), 'kin-health-uploads'));
    expect(path.dirname(folder)).toBe(tmpdir());
    expect(path.basename(folder)).toMatch(new RegExp(`^kin-health-uploads-${process.pid}-`));
    // The same folder for every upload of the process.
    expect(path.dirname(await store.incomingFile())).toBe(folder);
  });

  it('is made new each time, 0700, in the folder given, whatever someone else made there', async () => {
    // Someone else made the folder earlier versions shared, open to all, before the server.
    const shared = path.join(parent, 'kin-health-uploads');
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    const first = await makeSpoolFolder(parent);
    const second = await makeSpoolFolder(parent);
    expect(first).not.toBe(second);
    for (const folder of [first, second]) {
      expect(folder).not.toBe(shared);
      expect(path.dirname(folder)).toBe(parent);
      expect(statSync(folder).mode & 0o777).toBe(0o700);
    }
  });

  it('of a process that stopped an hour ago is removed; that of a running one is kept', async () => {
    // A process id no process has (above the kernel's largest, 2^22).
    const stopped = path.join(parent, 'kin-health-uploads-9999999-abcDEF');
    const justStopped = path.join(parent, 'kin-health-uploads-9999998-abcDEF');
    const running = path.join(parent, `kin-health-uploads-${process.pid}-abcDEF`);
    const shared = path.join(parent, 'kin-health-uploads');
    const other = path.join(parent, 'something-else');
    const anHourAgo = new Date(Date.now() - 61 * 60 * 1000);
    for (const folder of [stopped, justStopped, running, shared, other]) {
      mkdirSync(folder, { mode: 0o700 });
      writeFileSync(path.join(folder, 'upload'), 'bytes');
      if (folder !== justStopped) utimesSync(folder, anHourAgo, anHourAgo);
    }
    await removeLeftSpoolFolders(parent);
    expect(existsSync(stopped)).toBe(false);
    for (const kept of [justStopped, running, shared, other]) expect(existsSync(kept)).toBe(true);
  });

  it('is made anew when it is gone', async () => {
    const first = await uploadSpoolFolder();
    rmSync(first, { recursive: true });
    const second = await uploadSpoolFolder();
    expect(second).not.toBe(first);
    expect(statSync(second).mode & 0o777).toBe(0o700);
    expect(await uploadSpoolFolder()).toBe(second);
  });
});
