/**
 * GET /api/export (the user's data as one JSON file, or, when they have documents, a zip
 * archive of that JSON and the documents' files: decision 0037) and POST /api/import: that
 * file or archive, or,
 * with `?person={id}`, a FHIR R4 Bundle into one person (the user or one of their family
 * members), beside what they already have. `?preview=true` answers what the import would
 * do (new, already here, changed, per type) and writes nothing; `?changed=keep|replace`
 * says what becomes of the records the file holds changed (import-preview.ts).
 *
 * An import is refused before its body is read when another import of the account is
 * running (on any instance); a JSON body is read up to a bound that holds the largest account
 * the benchmark keeps, several times over; an archive (told by its first bytes) is streamed
 * to a temporary file, up to the account's quota and that bound, and read from there.
 */
import { rm } from 'node:fs/promises';
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import {
  archiveLimitBytes,
  dataExportSchema,
  IMPORT_ALREADY_RUNNING,
  isZip,
  IMPORT_TOO_LARGE,
  MAX_IMPORT_BYTES,
} from '../../shared/data-export';
import { recordAuditEventOrLog } from '../audit/audit-log';
import type { DB } from '../db/schema';
import type { DocumentIntake } from '../documents/document-intake';
import type { AttemptLimits } from '../limits/attempt-limits';
import type { Logger } from '../logger';
import type { AppEnv } from '../http/env';
import { ApiError } from '../../shared/api-error';
import { isFhirResource } from '../../shared/fhir';
import { importQuerySchema } from '../../shared/import-preview';
import { importFhirBundleOnThread } from '../fhir/fhir-import-thread';
import { previewFhirImport, saveFhirImport } from '../fhir/fhir-import-store';
import { PERSON_NOT_FOUND } from '../fhir/fhir-routes';
import { badRequest, notFound } from '../http/errors';
import { requestBody } from '../http/request-body';
import { validate, validationErrorBody } from '../http/validation';
import { withAccountLock } from '../limits/account-locks';
import { findPerson } from '../persons/person-records';
import { receiveFile } from '../documents/document-intake';
import {
  exportUserData,
  importUserData,
  previewUserImport,
  type ImportArchive,
} from './data-transfer';
import { exportArchive } from './export-archive';
import { openArchive, type OpenedArchive } from './import-archive';
import type { DocumentImportDependencies } from './import-documents';

const tooLarge = () => new ApiError(413, IMPORT_TOO_LARGE);

/** Chunks, with one read already put back in front. */
async function* withFirst(first: Uint8Array, rest: AsyncIterator<Uint8Array>) {
  yield first;
  for (;;) {
    const { done, value } = await rest.next();
    if (done) return;
    yield value;
  }
}

/** The request body's bytes, refused as soon as they are more than the bound. */
async function readBounded(
  chunks: AsyncIterable<Uint8Array>,
  max: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.byteLength;
    if (size > max) throw tooLarge();
    parts.push(chunk);
  }
  // A buffer of its own, which a FHIR import hands over to the thread that reads it.
  const bytes = new Uint8Array(new ArrayBuffer(size));
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return bytes;
}

type ImportBody = { bytes: Uint8Array<ArrayBuffer> } | { archive: string };

/**
 * An import's body: JSON read into memory (at most MAX_IMPORT_BYTES), or, when its first
 * bytes are a zip's, an archive streamed to a temporary file (at most `archiveMax`).
 */
async function receiveImport(
  request: Request,
  body: AsyncIterable<Uint8Array>,
  archiveMax: number,
  incomingFile: () => Promise<string>,
): Promise<ImportBody> {
  if (Number(request.headers.get('content-length') ?? 0) > archiveMax) throw tooLarge();
  const chunks = body[Symbol.asyncIterator]();
  const first = await chunks.next();
  if (first.done) return { bytes: new Uint8Array(0) };
  const all = withFirst(first.value, chunks);
  if (!isZip(first.value)) {
    if (Number(request.headers.get('content-length') ?? 0) > MAX_IMPORT_BYTES) throw tooLarge();
    return { bytes: await readBounded(all, MAX_IMPORT_BYTES) };
  }
  const file = await incomingFile();
  await receiveFile(all, file, archiveMax, tooLarge);
  return { archive: file };
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest(`The file is not ${what} (it is not JSON)`, 'file');
  }
}

/** The product's own export file, its shape checked (its rows are checked by the import). */
function checkedExport(text: string) {
  const json = parseJson(text, 'a Kin Health export');
  if (isFhirResource(json)) {
    throw badRequest('Person: choose whose records the FHIR file holds', 'person');
  }
  const file = dataExportSchema.safeParse(json);
  if (!file.success) {
    const body = validationErrorBody(file.error);
    throw badRequest(body.message, body.field);
  }
  return file.data;
}

/**
 * Imports (previews included) per account: a preview and its import are two, so this is
 * fifteen files an hour, more than a family bringing in its records needs, and a bound on
 * how long one account can keep the server busy.
 */
export const IMPORT_LIMIT = { max: 30, windowSeconds: 60 * 60 };
export const TOO_MANY_IMPORTS =
  'Too many imports from this account. Please wait and try again later.';

export function dataTransferRoutes(
  db: Kysely<DB>,
  limits: AttemptLimits,
  logger: Logger,
  /** Where documents go, as uploads do: a FHIR bundle's, an archive's. */
  documentIntake: DocumentIntake,
) {
  const documents: DocumentImportDependencies = {
    database: documentIntake.database,
    documents: documentIntake.documents,
    intake: documentIntake,
  };
  const { store, quotaBytes } = documentIntake;
  return new Hono<AppEnv>()
    .get('/export', async (c) => {
      const userId = c.var.user.id;
      const data = await exportUserData(db, userId);
      const name = `kin-health-export-${data.exported_at.slice(0, 10)}`;
      if (data.documents.length === 0) {
        c.header('Content-Disposition', `attachment; filename="${name}.json"`);
        return c.json(data);
      }
      c.header('Content-Disposition', `attachment; filename="${name}.zip"`);
      c.header('Content-Type', 'application/zip');
      return c.body(exportArchive(data, store, userId));
    })
    .post('/import', validate('query', importQuerySchema), async (c) => {
      const userId = c.var.user.id;
      const { person: personId, preview, changed } = c.req.valid('query');
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
      const person = personId === undefined ? undefined : await findPerson(db, userId, personId);
      if (personId !== undefined && !person) throw notFound(PERSON_NOT_FOUND);
      const locked = await withAccountLock(db, { userId, operation: 'import' }, async () => {
        const body = await receiveImport(
          c.req.raw,
          requestBody(c),
          archiveLimitBytes(quotaBytes),
          () => store.incomingFile(),
        );
        if ('archive' in body) {
          let opened: OpenedArchive | undefined;
          try {
            if (person) throw badRequest('A FHIR import is a JSON file, not an archive', 'file');
            opened = await openArchive(body.archive);
            const file = checkedExport(opened.json);
            const archive: ImportArchive = { files: opened.files, deps: documents };
            // Awaited here: the archive is read until the import is done.
            return await (preview
              ? previewUserImport(db, userId, file, archive)
              : importUserData(db, userId, file, changed, archive));
          } finally {
            opened?.close();
            await rm(body.archive, { force: true });
          }
        }
        const { bytes } = body;
        if (person) {
          const bundle = await importFhirBundleOnThread(bytes, {
            familyMemberId: person.family_member_id,
          });
          if (!bundle.ok) throw badRequest(bundle.message, 'file');
          return preview
            ? previewFhirImport(db, userId, person, bundle, documentIntake)
            : saveFhirImport(db, userId, person, bundle, changed, documentIntake);
        }
        const file = checkedExport(new TextDecoder().decode(bytes));
        return preview
          ? previewUserImport(db, userId, file)
          : importUserData(db, userId, file, changed);
      });
      if (!locked) throw new ApiError(409, IMPORT_ALREADY_RUNNING);
      return c.json(locked.result, preview ? 200 : 201);
    });
}
