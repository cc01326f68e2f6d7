/**
 * Where uploads arrive on PostgreSQL, whose documents' files are in the database, not on a
 * disk of the server's: a folder of this server process's own in the system's temporary
 * folder, made once by mkdtemp (a new name, which no one else can have made first, mode
 * 0700), its owner and mode checked each time an upload is to be written in it (made anew
 * should it be gone), and removed as the process exits. Folders left by a process that did
 * not exit (killed, or the machine stopped) are removed when the next one makes its own:
 * each folder's name carries its process's id, and a folder of this user's whose process is
 * gone and that no upload has touched for an hour is no one's. (The one folder earlier
 * versions shared is left alone: a server of an earlier version may still be using it.)
 */
import { rmSync } from 'node:fs';
import { lstat, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

const PREFIX = 'kin-health-uploads-';
/** A spool folder's name: the prefix, its process's id, mkdtemp's six characters. */
const SPOOL_NAME = /^kin-health-uploads-(\d+)-[A-Za-z0-9]{6}$/;
/** How long a stopped process's folder is left: another server's, seen from another container. */
const LEFT_FOR_MS = 60 * 60 * 1000;

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: a process of another user's has the id; it is alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Whether a folder is this user's own, a folder (not a link to one) no one else may enter. */
async function isPrivateFolder(folder: string): Promise<boolean> {
  const stats = await lstat(folder);
  return stats.isDirectory() && stats.uid === process.getuid?.() && (stats.mode & 0o077) === 0;
}

/** Removes, from `parent`, the spool folders of this user's left by stopped processes. */
export async function removeLeftSpoolFolders(parent = tmpdir()): Promise<void> {
  for (const name of await readdir(parent)) {
    const match = SPOOL_NAME.exec(name);
    if (!match || isAlive(Number(match[1]))) continue;
    const folder = path.join(parent, name);
    try {
      const stats = await lstat(folder);
      if (!stats.isDirectory() || stats.uid !== process.getuid?.()) continue;
      if (stats.mtimeMs > Date.now() - LEFT_FOR_MS) continue;
      await rm(folder, { recursive: true, force: true });
    } catch {
      // Gone already, or not ours to remove.
    }
  }
}

/** Makes a new private spool folder in `parent` (see above) and answers its path. */
export async function makeSpoolFolder(parent = tmpdir()): Promise<string> {
  const folder = await mkdtemp(path.join(parent, `${PREFIX}${process.pid}-`));
  if (!(await isPrivateFolder(folder))) {
    await rm(folder, { recursive: true, force: true });
    throw new Error(`The upload folder ${folder} is not the server's own (0700)`);
  }
  return folder;
}

let spool: Promise<string> | undefined;

/**
 * This process's spool folder, made on the first upload (after the folders left by stopped
 * processes are removed), checked at each (its owner and mode; made anew should it be gone),
 * and removed as the process exits.
 */
export async function uploadSpoolFolder(): Promise<string> {
  if (spool) {
    const folder = await spool.catch(() => undefined);
    if (folder) {
      const kept = await isPrivateFolder(folder).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      });
      if (kept) return folder;
      if (kept === false) throw new Error(`The upload folder ${folder} is no longer private`);
    }
  }
  spool = (async () => {
    await removeLeftSpoolFolders().catch(() => {});
    const folder = await makeSpoolFolder();
    process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
    return folder;
  })();
  return spool;
}
