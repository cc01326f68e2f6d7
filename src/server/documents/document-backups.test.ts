/**
 * Documents' files in the SQLite backups: a backup keeps every file its database names and
 * checks each hash; a restore brings them back into DATA_DIR, checked again, and refuses a
 * backup whose file was changed, putting nothing in place.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseBackupConfig } from '../config';
import { SQLITE_FILE_NAME } from '../db/database';
import { createLogger } from '../logger';
import { createBackup } from '../operations/backup';
import { restoreBackup, RestoreRefusedError } from '../operations/restore';
import { createTestServer, signedUpClient, testEngine } from '../test/harness';
import { sampleHeic } from '../test/documents';
import type { StoredDocument } from '../../shared/documents';
import { keptSamplePdf } from './fixtures/sample-files';

const logger = createLogger('silent');
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'kin-doc-backup-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const makePdf = () => keptSamplePdf();

describe.skipIf(testEngine() !== 'sqlite')('documents in backups', () => {
  it('keep every file with the backup, and bring them back with a restore, hashes checked', async () => {
    const server = await createTestServer();
    try {
      const { client } = await signedUpClient(server);
      const pdf = await makePdf();
      const heic = sampleHeic();
      const uploaded: StoredDocument[] = [];
      for (const [bytes, name] of [
        [pdf, 'referral.pdf'],
        [heic, 'IMG_0002.HEIC'],
      ] as const) {
        const response = await client.sendBytes<StoredDocument>(
          'POST',
          `/api/documents?title=${name}&document_type=Referral&file_name=${name}`,
          bytes,
        );
        expect(response.status).toBe(201);
        uploaded.push(response.body);
      }
      const backupDir = tempDir();
      const entry = await createBackup({
        databaseFile: server.database.file as string,
        backupDir,
        reason: 'manual',
        logger,
      });
      // The PDF and its thumbnail; the HEIC, its JPEG and its thumbnail.
      expect(entry.record?.documents?.files).toBe(5);
      expect(entry.verification).toBe('ok');

      // Restored into an empty DATA_DIR: the files come back, each as it was uploaded.
      const dataDir = tempDir();
      const report = await restoreBackup({
        source: entry.path,
        dataDir,
        backup: parseBackupConfig({}, dataDir),
        logger,
      });
      expect(report.documents.files).toBe(5);
      const owner = uploaded[0]?.user_id as string;
      const restoredPdf = path.join(dataDir, 'documents', owner, hashOf(pdf));
      expect(readFileSync(restoredPdf).equals(pdf)).toBe(true);
      expect(existsSync(path.join(dataDir, SQLITE_FILE_NAME))).toBe(true);

      // A file of the backup changed: the restore is refused, and puts nothing in place.
      writeFileSync(path.join(backupDir, 'documents', owner, hashOf(pdf)), 'changed');
      const other = tempDir();
      await expect(
        restoreBackup({
          source: entry.path,
          dataDir: other,
          backup: parseBackupConfig({}, other),
          logger,
        }),
      ).rejects.toThrow(RestoreRefusedError);
      expect(existsSync(path.join(other, SQLITE_FILE_NAME))).toBe(false);
      // And a new backup no longer passes its check while a file it names is changed.
      const live = path.join(path.dirname(server.database.file as string), 'documents', owner);
      rmSync(path.join(live, hashOf(pdf)));
      writeFileSync(path.join(live, hashOf(pdf)), 'x');
      await expect(
        createBackup({
          databaseFile: server.database.file as string,
          backupDir: tempDir(),
          reason: 'manual',
          logger,
        }),
      ).rejects.toThrow(/does not match its hash/);
    } finally {
      await server.close();
    }
  });
});

function hashOf(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
