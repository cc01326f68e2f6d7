/**
 * Import History (CONTRACT §6 'Bring records in'): GET /api/imports lists the account's
 * imports, newest first; GET /api/imports/turn says whether its import waits for its turn;
 * POST /api/imports/{id}/undo removes what one added (import-history.ts), its owner checked,
 * within UNDO_DAYS and once; an undo is noted in the audit log.
 */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { recordAuditEventOrLog } from '../audit/audit-log';
import type { DB } from '../db/schema';
import type { DocumentIntake } from '../documents/document-intake';
import { onDocumentDeleted } from '../documents/document-hooks';
import { createDocumentRecords } from '../documents/document-records';
import { ownAccess } from '../access/scope';
import type { AppEnv } from '../http/env';
import type { Logger } from '../logger';
import { listImports, undoImport, type UndoDependencies } from './import-history';
import { lockState } from '../limits/account-locks';

export function importRoutes(
  db: Kysely<DB>,
  logger: Logger,
  intake: Pick<DocumentIntake, 'database' | 'documents'>,
) {
  const attachments = createDocumentRecords(db);
  const undo: UndoDependencies = {
    async deleteDocument(userId, documentId) {
      const deleted = await intake.documents.delete(ownAccess(userId), documentId);
      if (!deleted) return false;
      await onDocumentDeleted(intake.database, { documentId, userId });
      return true;
    },
    recordRemoved: (userId, path, recordId) => attachments.detachRecord(userId, path, recordId),
  };
  return (
    new Hono<AppEnv>()
      .get('/imports', async (c) => c.json(await listImports(db, c.var.user.id)))
      // Whether the account's import runs, and waits for its turn beside the server's other
      // heavy jobs (KIN_MEMORY_MB): asked by the import page while its file is read.
      .get('/imports/turn', async (c) =>
        c.json(await lockState(db, { userId: c.var.user.id, operation: 'import' })),
      )
      .post('/imports/:id/undo', async (c) => {
        const userId = c.var.user.id;
        const answer = await undoImport(db, userId, c.req.param('id'), undo);
        await recordAuditEventOrLog(db, logger, c.req.raw.headers, {
          event: 'import_undone',
          userId,
          detail: `removed ${answer.removed}, kept ${answer.kept_edited}`,
        });
        return c.json(answer);
      })
  );
}
