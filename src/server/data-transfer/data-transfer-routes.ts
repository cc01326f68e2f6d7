/**
 * GET /api/export (the user's data as one JSON file) and POST /api/import: that file, or,
 * with `?person={id}`, a FHIR R4 Bundle into one person (the user or one of their family
 * members), beside what they already have. `?preview=true` answers what the import would
 * do (new, already here, changed, per type) and writes nothing; `?changed=keep|replace`
 * says what becomes of the records the file holds changed (import-preview.ts).
 *
 * An import is refused before its body is read when another import of the account is
 * running (on any instance); the body is read up to a bound that holds the largest account
 * the benchmark keeps, several times over.
 */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import {
  dataExportSchema,
  IMPORT_ALREADY_RUNNING,
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
import { validate, validationErrorBody } from '../http/validation';
import { withAccountLock } from '../limits/account-locks';
import { findPerson } from '../persons/person-records';
import { exportUserData, importUserData, previewUserImport } from './data-transfer';

const tooLarge = () => new ApiError(413, IMPORT_TOO_LARGE);

/** The request body's bytes, refused as soon as they are more than the bound. */
async function readBounded(request: Request, max: number): Promise<Uint8Array<ArrayBuffer>> {
  if (Number(request.headers.get('content-length') ?? 0) > max) throw tooLarge();
  const reader = request.body?.getReader();
  if (!reader) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  // A buffer of its own, which a FHIR import hands over to the thread that reads it.
  const bytes = new Uint8Array(new ArrayBuffer(size));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest(`The file is not ${what} (it is not JSON)`, 'file');
  }
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
  /** Where a FHIR bundle's documents go, as uploads do. */
  documentIntake: DocumentIntake,
) {
  return new Hono<AppEnv>()
    .get('/export', async (c) => {
      const data = await exportUserData(db, c.var.user.id);
      const day = data.exported_at.slice(0, 10);
      c.header('Content-Disposition', `attachment; filename="kin-health-export-${day}.json"`);
      return c.json(data);
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
        const bytes = await readBounded(c.req.raw, MAX_IMPORT_BYTES);
        if (person) {
          const bundle = await importFhirBundleOnThread(bytes, {
            familyMemberId: person.family_member_id,
          });
          if (!bundle.ok) throw badRequest(bundle.message, 'file');
          return preview
            ? previewFhirImport(db, userId, person, bundle)
            : saveFhirImport(db, userId, person, bundle, changed, documentIntake);
        }
        const json = parseJson(new TextDecoder().decode(bytes), 'a Kin Health export');
        if (isFhirResource(json)) {
          throw badRequest('Person: choose whose records the FHIR file holds', 'person');
        }
        const file = dataExportSchema.safeParse(json);
        if (!file.success) {
          const body = validationErrorBody(file.error);
          throw badRequest(body.message, body.field);
        }
        return preview
          ? previewUserImport(db, userId, file.data)
          : importUserData(db, userId, file.data, changed);
      });
      if (!locked) throw new ApiError(409, IMPORT_ALREADY_RUNNING);
      return c.json(locked.result, preview ? 200 : 201);
    });
}
