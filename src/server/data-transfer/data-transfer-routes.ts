/**
 * GET /api/export (the user's data as one JSON file, or, when they have documents, a zip
 * archive of that JSON and the documents' files: decision 0037) and POST /api/import: any
 * file Kin Health imports (CONTRACT §6 'Bring records in'), its kind told by its content
 * (imports/import-file.ts). `?preview=true` answers what the import would do (its kind, its
 * person, new, already here, changed, per type) and writes nothing; `?person={id}|new` says
 * whose the records are (none: the person the file's patient matches); `?changed=keep|replace`
 * says what becomes of the records the file holds changed (import-preview.ts); `?file=` is
 * the file's name for Import History; `?confirm=true` imports a CSV's readable rows although
 * some are not; `?from=&to=&tz=` bound the measurements read.
 *
 * An import is refused before its body is read when another import of the account is
 * running (on any instance); every body is streamed to a temporary file, up to the bound its
 * kind calls for, read from there, and removed afterwards, imported or refused.
 */
import { rm } from 'node:fs/promises';
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { IMPORT_ALREADY_RUNNING } from '../../shared/data-export';
import { NEW_MEMBER, NOT_IMPORTABLE } from '../../shared/imports';
import { recordAuditEventOrLog } from '../audit/audit-log';
import type { DB } from '../db/schema';
import type { DocumentIntake } from '../documents/document-intake';
import type { AttemptLimits } from '../limits/attempt-limits';
import type { Logger } from '../logger';
import type { AppEnv } from '../http/env';
import { ApiError } from '../../shared/api-error';
import { importQuerySchema } from '../../shared/import-preview';
import { ownPerson } from '../access/persons';
import { badRequest } from '../http/errors';
import { requestBody } from '../http/request-body';
import { validate } from '../http/validation';
import { withAccountLock } from '../limits/account-locks';
import { receiveFile } from '../documents/document-intake';
import { importReceivedFile, lockedTurn, receiveBound, tooLargeFor } from '../imports/import-file';
import { documentRows, exportJson, hasDocuments } from './export-user-data';
import { streamedText } from '../http/streamed-text';
import { exportArchive } from './export-archive';
import { key } from '../../shared/i18n/translate';

/** Chunks, with one read already put back in front. */
async function* withFirst(first: Uint8Array, rest: AsyncIterator<Uint8Array>) {
  yield first;
  for (;;) {
    const { done, value } = await rest.next();
    if (done) return;
    yield value;
  }
}

/**
 * Spools an import's body to a temporary file, refused past the bound its first bytes call
 * for (a zip or XML may be an Apple Health export, up to 2 GB; other files 32 MB): its kind
 * is then told from the file (recognise-file.ts). Answers its size.
 */
async function receiveImport(
  request: Request,
  body: AsyncIterable<Uint8Array>,
  quotaBytes: number,
  file: string,
): Promise<number> {
  const declared = Number(request.headers.get('content-length') ?? 0);
  const chunks = body[Symbol.asyncIterator]();
  const first = await chunks.next();
  if (first.done) throw badRequest(NOT_IMPORTABLE, 'file');
  const bound = receiveBound(first.value, quotaBytes);
  if (declared > bound) throw tooLargeFor(bound);
  const received = await receiveFile(withFirst(first.value, chunks), file, bound, () =>
    tooLargeFor(bound),
  );
  return received.size;
}

/**
 * Imports (previews included) per account: a preview and its import are two, so this is
 * fifteen files an hour, more than a family bringing in its records needs, and a bound on
 * how long one account can keep the server busy.
 */
export const IMPORT_LIMIT = { max: 30, windowSeconds: 60 * 60 };
export const TOO_MANY_IMPORTS = key(
  'Too many imports from this account. Please wait and try again later.',
);

export function dataTransferRoutes(
  db: Kysely<DB>,
  limits: AttemptLimits,
  logger: Logger,
  /** Where documents go, as uploads do: a FHIR bundle's, an archive's. */
  documentIntake: DocumentIntake,
) {
  const { store, quotaBytes } = documentIntake;
  return new Hono<AppEnv>()
    .get('/export', async (c) => {
      const userId = c.var.user.id;
      const exportedAt = new Date().toISOString();
      const name = `kin-health-export-${exportedAt.slice(0, 10)}`;
      const json = exportJson(db, userId, exportedAt);
      if (!(await hasDocuments(db, userId))) {
        c.header('Content-Disposition', `attachment; filename="${name}.json"`);
        c.header('Content-Type', 'application/json');
        return c.body(streamedText(json));
      }
      c.header('Content-Disposition', `attachment; filename="${name}.zip"`);
      c.header('Content-Type', 'application/zip');
      return c.body(exportArchive(json, documentRows(db, userId), store, userId, exportedAt));
    })
    .post('/import', validate('query', importQuerySchema), async (c) => {
      const userId = c.var.user.id;
      const query = c.req.valid('query');
      const { person: personId, preview, changed, confirm, from, to, tz } = query;
      const fileName = query.file;
      const allowed = await limits.consume({ scope: 'account', subject: userId, action: 'import' });
      if (!allowed.allowed) {
        await recordAuditEventOrLog(db, logger, c.req.raw.headers, {
          event: 'too_many_attempts',
          userId,
          detail: 'import',
        });
        c.header('Retry-After', String(allowed.retryAfterSeconds));
        throw new ApiError(429, TOO_MANY_IMPORTS);
      }
      if (personId !== undefined && personId !== NEW_MEMBER) {
        await ownPerson(db, userId, personId);
      }
      const locked = await withAccountLock(db, { userId, operation: 'import' }, async (lock) => {
        const path = await store.incomingFile();
        try {
          const size = await receiveImport(c.req.raw, requestBody(c), quotaBytes, path);
          // Awaited here: the file is read until the import is done.
          return await importReceivedFile(
            { db, intake: documentIntake },
            {
              userId,
              personParam: personId,
              preview,
              changed,
              confirm,
              fileName: fileName || 'Imported file',
              options: { from, to, ...(tz ? { timeZone: tz } : {}) },
              path,
              size,
              turn: lockedTurn(lock),
              // A preview whose page was left gives up its turn, and so the account's lock.
              signal: c.req.raw.signal,
            },
          );
        } finally {
          await rm(path, { force: true });
        }
      });
      if (!locked) throw new ApiError(409, IMPORT_ALREADY_RUNNING);
      return c.json(locked.result, preview ? 200 : 201);
    });
}
