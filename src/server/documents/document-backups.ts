/**
 * Documents' files in the SQLite backups. A backup is a copy of the database; the files its
 * `documents` rows name are kept beside the backups in BACKUP_DIR/documents/{owner}/{sha256}
 * (content-addressed: each file is copied there once, for every backup that names it). A
 * backup is verified only when every file it names is there with the hash it is named by; a
 * restore brings back every file the restored database names, each checked against its
 * hash, or refuses and changes nothing. (On PostgreSQL the files are rows of the database,
 * in its own backups.)
 */
import { createHash } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  copyFileSync,
  createReadStream,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import SQLite from 'better-sqlite3';

export const DOCUMENTS_DIR_NAME = 'documents';

export interface DocumentFileRef {
  owner: string;
  sha256: string;
}

export interface DocumentFilesSummary {
  files: number;
  bytes: number;
}

/** Every file a database's documents name (none when it has no documents table yet). */
export function documentFilesOf(databaseFile: string): DocumentFileRef[] {
  const db = new SQLite(databaseFile, { readonly: true, fileMustExist: true });
  try {
    const table = db
      .prepare(`select 1 from sqlite_schema where type = 'table' and name = 'documents'`)
      .get();
    if (!table) return [];
    const rows = db
      .prepare('select user_id, sha256, display_sha256, thumbnail_sha256 from documents')
      .all() as {
      user_id: string;
      sha256: string;
      display_sha256: string | null;
      thumbnail_sha256: string | null;
    }[];
    const seen = new Map<string, DocumentFileRef>();
    for (const row of rows) {
      for (const sha256 of [row.sha256, row.display_sha256, row.thumbnail_sha256]) {
        if (sha256) seen.set(`${row.user_id}/${sha256}`, { owner: row.user_id, sha256 });
      }
    }
    return [...seen.values()];
  } finally {
    db.close();
  }
}

/** A file's SHA-256 and size, read as a stream. */
export async function hashFile(file: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

const fileIn = (root: string, ref: DocumentFileRef) => path.join(root, ref.owner, ref.sha256);

/**
 * Copies a file to `target` (written aside, synced, renamed): a copy, never a link, so that
 * whatever befalls the one file leaves the other whole.
 */
function placeFile(source: string, target: string) {
  mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    copyFileSync(source, temp);
    chmodSync(temp, 0o600);
    const fd = openSync(temp, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, target);
  } finally {
    rmSync(temp, { force: true });
  }
}

/** Checks that `file` is there with the hash it is named by; the problem, or null. */
async function problemWith(file: string, ref: DocumentFileRef): Promise<string | null> {
  if (!existsSync(file)) return `the file ${ref.owner}/${ref.sha256} of a document is missing`;
  const { sha256 } = await hashFile(file);
  return sha256 === ref.sha256
    ? null
    : `the file ${ref.owner}/${ref.sha256} does not match its hash`;
}

/**
 * Keeps beside the backups every file a backup's database names, and checks each one's hash
 * there. Throws (with what is wrong) when a file is missing or changed.
 */
export async function backUpDocumentFiles(options: {
  copy: string;
  dataDir: string;
  backupDir: string;
}): Promise<DocumentFilesSummary> {
  const from = path.join(options.dataDir, DOCUMENTS_DIR_NAME);
  const to = path.join(options.backupDir, DOCUMENTS_DIR_NAME);
  let bytes = 0;
  const refs = documentFilesOf(options.copy);
  for (const ref of refs) {
    const target = fileIn(to, ref);
    if (!existsSync(target)) {
      const source = fileIn(from, ref);
      if (!existsSync(source)) {
        throw new Error(`the file ${ref.owner}/${ref.sha256} of a document is missing`);
      }
      placeFile(source, target);
    }
    const problem = await problemWith(target, ref);
    if (problem) throw new Error(problem);
    bytes += (await hashFile(target)).bytes;
  }
  return { files: refs.length, bytes };
}

/**
 * Brings back into DATA_DIR every file a restored database names, from the backups' files,
 * each checked against its hash. Throws, having put nothing of the database in place, when
 * one cannot be found whole.
 */
export async function restoreDocumentFiles(options: {
  databaseFile: string;
  dataDir: string;
  backupDir: string;
}): Promise<DocumentFilesSummary> {
  const here = path.join(options.dataDir, DOCUMENTS_DIR_NAME);
  const kept = path.join(options.backupDir, DOCUMENTS_DIR_NAME);
  const refs = documentFilesOf(options.databaseFile);
  let bytes = 0;
  // Every file is checked before any is placed: a refused restore changes nothing.
  const missing: DocumentFileRef[] = [];
  for (const ref of refs) {
    if ((await problemWith(fileIn(here, ref), ref)) === null) continue;
    const problem = await problemWith(fileIn(kept, ref), ref);
    if (problem) throw new Error(problem);
    missing.push(ref);
  }
  for (const ref of missing) {
    rmSync(fileIn(here, ref), { force: true });
    placeFile(fileIn(kept, ref), fileIn(here, ref));
  }
  for (const ref of refs) bytes += (await hashFile(fileIn(here, ref))).bytes;
  return { files: refs.length, bytes };
}
