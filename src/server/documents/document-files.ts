/**
 * Where documents' files are kept: content-addressed by their SHA-256, per owner, and never
 * half-written. On SQLite (the embedded default), files under DATA_DIR/documents/{owner}/
 * (files 0600, folders 0700), each written under a temporary name, synced and renamed; on
 * PostgreSQL, rows of `document_blobs` in chunks of 1 MiB of bytea, a file's chunks written
 * in one transaction (decision 0033), so that every app server sees them. Files are read as
 * streams, a range at a time when asked for one.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { deleteOwned, ownedRow, ownedRows } from '../access/scope';
import type { Database } from '../db/database';
import type { DB } from '../db/schema';
import { collectingAsItStreams } from '../runtime/collect-garbage';
import { uploadSpoolFolder } from './upload-spool';

/** A chunk of a file on PostgreSQL: a row small enough to read and write whole. */
export const CHUNK_BYTES = 1024 * 1024;

const SHA256 = /^[0-9a-f]{64}$/;
const OWNER = /^[A-Za-z0-9_-]{1,64}$/;

/** A byte range of a file, both ends included (as HTTP's Range names them). */
export interface ByteRange {
  start: number;
  end: number;
}

export interface DocumentFileStore {
  /** A new temporary file's path, beside the files (so that keeping it is a rename). */
  incomingFile(): Promise<string>;
  /** Keeps a temporary file (already synced) under its hash; it is gone from where it was. */
  keepFile(owner: string, sha256: string, file: string): Promise<void>;
  keepBytes(owner: string, sha256: string, bytes: Uint8Array): Promise<void>;
  /** A file's bytes, or the range of them asked for. */
  read(owner: string, sha256: string, range?: ByteRange): Readable;
  remove(owner: string, sha256: string): Promise<void>;
  /** Every hash the owner has a file of. */
  list(owner: string): Promise<string[]>;
  /** Every file of the owner's (their account is gone). */
  removeOwner(owner: string): Promise<void>;
}

function checked(owner: string, sha256?: string) {
  if (!OWNER.test(owner)) throw new Error('Not an owner id');
  if (sha256 !== undefined && !SHA256.test(sha256)) throw new Error('Not a SHA-256');
}

/** Syncs a folder, so that a rename in it survives a power cut. */
async function syncFolder(folder: string) {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes and syncs a new file. */
async function writeSynced(file: string, bytes: Uint8Array) {
  await writeFile(file, bytes, { mode: 0o600, flush: true });
}

export function diskDocumentStore(root: string): DocumentFileStore {
  const incoming = path.join(root, '.incoming');
  const folderOf = (owner: string) => path.join(root, owner);
  const fileOf = (owner: string, sha256: string) => {
    checked(owner, sha256);
    return path.join(folderOf(owner), sha256);
  };
  const exists = async (file: string) => {
    try {
      await stat(file);
      return true;
    } catch {
      return false;
    }
  };
  const keep = async (owner: string, sha256: string, file: string) => {
    const target = fileOf(owner, sha256);
    if (await exists(target)) {
      await unlink(file);
      return;
    }
    await mkdir(folderOf(owner), { recursive: true, mode: 0o700 });
    await rename(file, target);
    await syncFolder(folderOf(owner));
  };
  return {
    async incomingFile() {
      await mkdir(incoming, { recursive: true, mode: 0o700 });
      return path.join(incoming, randomUUID());
    },
    keepFile: keep,
    async keepBytes(owner, sha256, bytes) {
      const file = await this.incomingFile();
      await writeSynced(file, bytes);
      await keep(owner, sha256, file);
    },
    read(owner, sha256, range) {
      return createReadStream(fileOf(owner, sha256), range ?? {});
    },
    async remove(owner, sha256) {
      await rm(fileOf(owner, sha256), { force: true });
    },
    async list(owner) {
      checked(owner);
      try {
        return (await readdir(folderOf(owner))).filter((name) => SHA256.test(name));
      } catch {
        return [];
      }
    },
    async removeOwner(owner) {
      checked(owner);
      await rm(folderOf(owner), { recursive: true, force: true });
    },
  };
}

export function postgresDocumentStore(
  db: Kysely<DB>,
  spoolFolder: () => Promise<string> = uploadSpoolFolder,
): DocumentFileStore {
  const has = async (owner: string, sha256: string) =>
    Boolean(
      await ownedRows(db, 'document_blobs', owner)
        .select('part')
        .where('sha256', '=', sha256)
        .where('part', '=', 0)
        .executeTakeFirst(),
    );
  const keepChunks = async (
    owner: string,
    sha256: string,
    chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  ) => {
    checked(owner, sha256);
    if (await has(owner, sha256)) return;
    await db.transaction().execute(async (trx) => {
      let part = 0;
      for await (const data of chunks) {
        await trx
          .insertInto('document_blobs')
          .values(ownedRow(owner, { sha256, part, data }))
          .execute();
        part += 1;
      }
    });
  };
  async function* chunksOfFile(file: string) {
    const handle = await open(file, 'r');
    try {
      for (let position = 0; ; position += CHUNK_BYTES) {
        const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
        const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, position);
        if (bytesRead === 0) return;
        yield buffer.subarray(0, bytesRead);
        if (bytesRead < CHUNK_BYTES) return;
      }
    } finally {
      await handle.close();
    }
  }
  const part = (owner: string, sha256: string, index: number) =>
    ownedRows(db, 'document_blobs', owner)
      .select('data')
      .where('sha256', '=', sha256)
      .where('part', '=', index)
      .executeTakeFirst();
  return {
    async incomingFile() {
      return path.join(await spoolFolder(), randomUUID());
    },
    async keepFile(owner, sha256, file) {
      try {
        await keepChunks(owner, sha256, chunksOfFile(file));
      } finally {
        await rm(file, { force: true });
      }
    },
    async keepBytes(owner, sha256, bytes) {
      const chunks: Uint8Array[] = [];
      for (let start = 0; start < bytes.byteLength; start += CHUNK_BYTES) {
        chunks.push(bytes.subarray(start, start + CHUNK_BYTES));
      }
      await keepChunks(owner, sha256, chunks);
    },
    read(owner, sha256, range) {
      checked(owner, sha256);
      async function* parts() {
        const first = range ? Math.floor(range.start / CHUNK_BYTES) : 0;
        const last = range ? Math.floor(range.end / CHUNK_BYTES) : Number.MAX_SAFE_INTEGER;
        for (let index = first; index <= last; index += 1) {
          const row = await part(owner, sha256, index);
          if (!row) return;
          const data = Buffer.from(row.data);
          const from = range && index === first ? range.start - index * CHUNK_BYTES : 0;
          const to = range && index === last ? range.end - index * CHUNK_BYTES + 1 : data.length;
          yield data.subarray(from, to);
        }
      }
      return Readable.from(parts());
    },
    async remove(owner, sha256) {
      checked(owner, sha256);
      await deleteOwned(db, 'document_blobs', owner).where('sha256', '=', sha256).execute();
    },
    async list(owner) {
      const rows = await ownedRows(db, 'document_blobs', owner)
        .select('sha256')
        .where('part', '=', 0)
        .execute();
      return rows.map((row) => row.sha256);
    },
    async removeOwner(owner) {
      await deleteOwned(db, 'document_blobs', owner).execute();
    },
  };
}

const stores = new WeakMap<Database, DocumentFileStore>();

/**
 * The store of a database's documents: beside the SQLite file (DATA_DIR/documents), or in
 * PostgreSQL, uploads arriving meanwhile in a private folder of the process's own in the
 * system's temporary folder (upload-spool.ts).
 */
export function documentStoreOf(database: Database): DocumentFileStore {
  let store = stores.get(database);
  if (!store) {
    store =
      database.engine === 'postgres' || !database.file
        ? postgresDocumentStore(database.db)
        : diskDocumentStore(path.join(path.dirname(database.file), 'documents'));
    stores.set(database, store);
  }
  return store;
}

/**
 * A document's file (a HEIC photo's JPEG), as it streams, whoever owns it: for the server's
 * own work on a document it already knows to be legitimate (reading its text), never for a
 * request.
 */
export async function openDocumentFile(
  database: Database,
  documentId: string,
): Promise<{ bytes: Readable; mimeType: string } | undefined> {
  const row = await database.db
    .selectFrom('documents')
    .select(['user_id', 'sha256', 'display_sha256', 'mime_type'])
    .where('id', '=', documentId)
    .executeTakeFirst();
  if (!row) return undefined;
  const store = documentStoreOf(database);
  if (row.display_sha256) {
    return { bytes: store.read(row.user_id, row.display_sha256), mimeType: 'image/jpeg' };
  }
  return { bytes: store.read(row.user_id, row.sha256), mimeType: row.mime_type };
}

/**
 * A stored file's bytes as a response's body: each piece read is garbage once written to the
 * socket, and the young generation is collected every 4 MB sent (V8 would leave a whole
 * download's pieces resident, below its own 64 MB).
 */
export function responseBodyOf(stream: Readable): ReadableStream<Uint8Array> {
  const collecting = collectingAsItStreams();
  const sent = Readable.from(
    (async function* () {
      for await (const piece of stream as AsyncIterable<Uint8Array>) {
        collecting(piece.byteLength);
        yield piece;
      }
    })(),
  );
  return Readable.toWeb(sent) as ReadableStream<Uint8Array>;
}
