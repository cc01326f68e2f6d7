/**
 * /api/documents: upload (the request's body is the file itself, taken in as it streams by
 * document-intake.ts; what it is said about it is in the query string), list, read, edit
 * (its title, type, date, person and the records it is attached to), attach to one more
 * record, and the files: the original, the copy a browser shows and the thumbnail,
 * streamed, a range at a time when asked. Beside them, the records a person's document may
 * be attached to, by name, for the choices of the screens, and the user's storage used.
 */
import { Hono, type Context } from 'hono';
import { importedFrom } from '../imports/import-history';
import { z } from 'zod';
import {
  DOCUMENT_EMPTY_MESSAGE,
  DOCUMENT_NOT_FOUND_MESSAGE,
  DOCUMENT_TYPES,
  MAX_DOCUMENT_BYTES,
  displayFileName,
  displayTypeOf,
  type AttachableRecords,
  type DocumentPage,
  type DocumentUsage,
  type StoredDocument,
} from '../../shared/documents';
import {
  documentEditSchema,
  documentRecordSchema,
  documentUploadSchema,
} from '../../shared/document-upload';
import { downloadName } from '../../shared/file-names';
import { UNKNOWN_MEMBER_MESSAGE } from '../../shared/records/fields';
import { shareOfRow, sharesInScope, type Access } from '../access/scope';
import { readablePerson, viewOnly, writeTarget } from '../access/persons';
import type { FamilyMemberRepository } from '../family-members/family-member-repository';
import type { HouseholdRepository } from '../household/household-repository';
import type { AppEnv } from '../http/env';
import { badRequest, notFound } from '../http/errors';
import { requestBody } from '../http/request-body';
import { validate } from '../http/validation';
import { responseBodyOf, type ByteRange } from './document-files';
import { onDocumentDeleted } from './document-hooks';
import { takeDocument, tooLarge, type DocumentIntake } from './document-intake';
import type { DocumentRecords } from './document-records';
import { DOCUMENTS_PAGE_SIZE, documentOfRow, type DocumentRow } from './document-repository';

export interface DocumentRouteDependencies extends DocumentIntake {
  members: FamilyMemberRepository;
  household: Pick<HouseholdRepository, 'noteUse'>;
  /** The records documents are attached to. */
  attachments: DocumentRecords;
}

const listQuery = z.object({
  member: z.string().optional(),
  document_type: z.enum(DOCUMENT_TYPES).optional(),
  record_type: z.string().max(40).optional(),
  record_id: z.string().max(64).optional(),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(DOCUMENTS_PAGE_SIZE),
});

/** The one range of a `Range: bytes=…` header, or 'unsatisfiable', or null (the whole file). */
export function parseRange(
  header: string | undefined,
  size: number,
): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

/**
 * Content-Disposition for a file of `type`: its name as a download names it (shared/file-names.ts:
 * no invisible character, the type's extension), in plain ASCII and in RFC 5987 form.
 */
function disposition(kind: 'inline' | 'attachment', fileName: string, type: string) {
  const name = downloadName(fileName, type);
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * What the document routes share: the documents as the API answers them, the checks of what
 * a request may read and write, and a file sent whole or a range at a time.
 */
function documentRouteParts(deps: DocumentRouteDependencies) {
  const { store, documents, members, household, attachments } = deps;
  const missing = () => notFound(DOCUMENT_NOT_FOUND_MESSAGE);

  /** The documents as the API answers them, each with the records it is attached to. */
  async function answerOf(access: Access, rows: readonly DocumentRow[]): Promise<StoredDocument[]> {
    const named = new Map<string, StoredDocument['records']>();
    for (const owner of new Set(rows.map((row) => row.user_id))) {
      const owned = rows.filter((row) => row.user_id === owner);
      // The account's contacts are read by the account alone, never by a grantee.
      for (const [id, records] of await attachments.named(owner, owned, owner === access.userId)) {
        named.set(id, records);
      }
    }
    return rows.map((row) => documentOfRow(row, named.get(row.id) ?? []));
  }
  const answerOne = async (access: Access, row: DocumentRow) =>
    (await answerOf(access, [row]))[0] as StoredDocument;

  /** Where a document for this person goes (see writeTarget): a member must be the user's. */
  const targetOf = (access: Access, personId: string | undefined) =>
    writeTarget(access, personId, (memberId) => members.owns(access.userId, memberId));

  /** A document the request reads, which it must also be allowed to change (403 if not). */
  async function writableDocument(access: Access, id: string): Promise<DocumentRow> {
    const row = await documents.get(access, id);
    if (!row) throw missing();
    if (row.user_id !== access.userId && shareOfRow(access, row)?.role !== 'editor') {
      throw viewOnly();
    }
    return row;
  }

  const noteShared = async (
    access: Access,
    row: { user_id: string; family_member_id: string | null },
    kind: 'read' | 'write',
  ) => {
    const share = row.user_id === access.userId ? undefined : shareOfRow(access, row);
    if (share) await household.noteUse(access, [share], kind);
  };

  /** Answers a file of a document, whole or the range asked for. */
  async function sendFile(
    c: Context<AppEnv>,
    file: { owner: string; sha256: string; size: number; type: string; name: string },
    kind: 'inline' | 'attachment',
  ) {
    const range = parseRange(c.req.header('range'), file.size);
    c.header('Content-Type', file.type);
    c.header('Content-Disposition', disposition(kind, file.name, file.type));
    c.header('Accept-Ranges', 'bytes');
    c.header('X-Content-Type-Options', 'nosniff');
    // A PDF is shown by the browser's own viewer, in a frame of the app's: a viewer runs no
    // script of the file's with the app's origin. Anything else is a sandboxed document.
    if (file.type === 'application/pdf' && kind === 'inline') {
      c.header('Content-Security-Policy', "default-src 'none'; frame-ancestors 'self'");
      c.header('X-Frame-Options', 'SAMEORIGIN');
    } else if (file.type.startsWith('text/html')) {
      // A C-CDA's narrative (built of a few plain tags, every text escaped): its own style
      // sheet, nothing else, in a sandbox.
      c.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    } else {
      c.header('Content-Security-Policy', "default-src 'none'; img-src 'self'; sandbox");
    }
    if (range === 'unsatisfiable') {
      c.header('Content-Range', `bytes */${file.size}`);
      return c.body(null, 416);
    }
    const body = responseBodyOf(store.read(file.owner, file.sha256, range ?? undefined));
    if (range) {
      c.header('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`);
      c.header('Content-Length', String(range.end - range.start + 1));
      return c.body(body, 206);
    }
    c.header('Content-Length', String(file.size));
    return c.body(body, 200);
  }

  return { missing, answerOf, answerOne, targetOf, writableDocument, noteShared, sendFile };
}

type DocumentRouteParts = ReturnType<typeof documentRouteParts>;

/**
 * Takes in an upload, its query checked: the document kept for the person it names, attached
 * to the record it names (one of the same person's).
 */
async function receiveUpload(
  deps: DocumentRouteDependencies,
  parts: DocumentRouteParts,
  c: Context<AppEnv>,
  input: z.infer<typeof documentUploadSchema>,
  access: Access,
) {
  const target = await parts.targetOf(access, input.family_member_id);
  // The record it is attached to: one of the same person's.
  const records =
    input.record_type || input.record_id
      ? await deps.attachments.check(
          target,
          [{ record_type: input.record_type ?? '', record_id: input.record_id ?? '' }],
          target.owner === access.userId,
          'record_id',
        )
      : [];
  // What the request declares is checked before a byte is read.
  const declared = c.req.header('content-length');
  const declaredBytes = declared === undefined ? undefined : Number.parseInt(declared, 10);
  if (declaredBytes !== undefined && declaredBytes > MAX_DOCUMENT_BYTES) throw tooLarge();
  if (declaredBytes === 0) throw badRequest(DOCUMENT_EMPTY_MESSAGE, 'file');
  const document = await takeDocument(
    deps,
    requestBody(c),
    {
      owner: target.owner,
      member: target.member,
      title: input.title,
      document_type: input.document_type,
      document_date: input.document_date ?? null,
      file_name: input.file_name ?? input.title,
      records,
    },
    declaredBytes,
  );
  if (target.share) await deps.household.noteUse(access, [target.share], 'write');
  return document;
}

/**
 * Changes a document's title, type, date and person, and (when given) every record it is
 * attached to: the document as changed, or none.
 */
async function editDocument(
  deps: DocumentRouteDependencies,
  parts: DocumentRouteParts,
  access: Access,
  id: string,
  input: z.infer<typeof documentEditSchema>,
) {
  const row = await parts.writableDocument(access, id);
  const target = await parts.targetOf(access, input.family_member_id);
  // A document stays with the account that keeps it, as a record does.
  if (target.owner !== row.user_id) throw badRequest(UNKNOWN_MEMBER_MESSAGE, 'family_member_id');
  // Its records are its person's: given, each is checked; left out, those it has stay
  // unless it goes to another person, whose records they are not.
  const records =
    input.records !== undefined
      ? await deps.attachments.check(
          target,
          input.records,
          target.owner === access.userId,
          'records',
        )
      : target.member === row.family_member_id
        ? undefined
        : [];
  return deps.documents.update(
    access,
    id,
    {
      title: input.title,
      document_type: input.document_type,
      document_date: input.document_date ?? null,
      owner: row.user_id,
      member: target.member,
    },
    records,
  );
}

/** The file a document is shown as: its display copy when it has one (a HEIC's JPEG), else itself. */
function viewOf(row: DocumentRow) {
  return row.display_sha256
    ? {
        owner: row.user_id,
        sha256: row.display_sha256,
        size: Number(row.display_bytes),
        type: displayTypeOf(row.mime_type).type,
        name: displayFileName(row.file_name, row.mime_type),
      }
    : {
        owner: row.user_id,
        sha256: row.sha256,
        size: Number(row.size_bytes),
        type: row.mime_type,
        name: row.file_name,
      };
}

/**
 * What the screens ask of documents beside one document: the records a person's document may
 * be attached to, and how much of the user's storage their documents take. Their paths are not
 * under /api/documents/, where a fixed name beside `/:id` would keep every route of the API
 * off Hono's RegExpRouter (app.test.ts).
 */
export function documentChoiceRoutes(
  deps: Pick<
    DocumentRouteDependencies,
    'database' | 'documents' | 'household' | 'attachments' | 'quotaBytes'
  >,
) {
  const { database, documents, household, attachments, quotaBytes } = deps;
  return (
    new Hono<AppEnv>()
      // The user, a member of theirs, or a person shared with them; any other id is no one.
      .get('/persons/:personId/attachable-records', async (c) => {
        const access = await c.var.access();
        const {
          ownerId: owner,
          person,
          share,
        } = await readablePerson(database.db, access, c.req.param('personId'));
        if (share) await household.noteUse(access, [share], 'read');
        return c.json<AttachableRecords>({
          records: await attachments.ofPerson(
            { owner, member: person.family_member_id },
            owner === access.userId,
          ),
        });
      })
      .get('/document-usage', async (c) => {
        const usage: DocumentUsage = {
          usedBytes: await documents.usedBytes(c.var.user.id),
          limitBytes: quotaBytes,
        };
        return c.json(usage);
      })
  );
}

export function documentRoutes(deps: DocumentRouteDependencies) {
  const { database, documents, household, attachments } = deps;
  const parts = documentRouteParts(deps);
  const { missing, answerOf, answerOne, writableDocument, noteShared, sendFile } = parts;

  return (
    new Hono<AppEnv>()
      .get('/', validate('query', listQuery), async (c) => {
        const query = c.req.valid('query');
        const access = await c.var.access();
        const page = await documents.list(access, {
          memberId: query.member,
          documentType: query.document_type,
          recordType: query.record_type,
          recordId: query.record_id,
          limit: query.limit,
          offset: query.offset,
        });
        const shared = sharesInScope(access, { memberLinked: true, personId: query.member });
        if (shared.length) await household.noteUse(access, shared, 'read');
        return c.json<DocumentPage>({
          documents: await answerOf(access, page.rows),
          total: page.total,
        });
      })
      .post('/', validate('query', documentUploadSchema), async (c) => {
        const access = await c.var.access();
        const document = await receiveUpload(deps, parts, c, c.req.valid('query'), access);
        return c.json(await answerOne(access, document), 201);
      })
      .get('/:id', async (c) => {
        const access = await c.var.access();
        const row = await documents.get(access, c.req.param('id'));
        if (!row) throw missing();
        await noteShared(access, row, 'read');
        const importedFromFile = await importedFrom(database.db, row.user_id, 'document', row.id);
        return c.json({ ...(await answerOne(access, row)), imported_from: importedFromFile });
      })
      // Its title, type, date and person, and (when given) every record it is attached to.
      .put('/:id', validate('json', documentEditSchema), async (c) => {
        const access = await c.var.access();
        const updated = await editDocument(
          deps,
          parts,
          access,
          c.req.param('id'),
          c.req.valid('json'),
        );
        if (!updated) throw missing();
        await noteShared(access, updated, 'write');
        return c.json(await answerOne(access, updated));
      })
      // Attaches it to one more record of its person's (attached already: as it was).
      .post('/:id/records', validate('json', documentRecordSchema), async (c) => {
        const input = c.req.valid('json');
        const access = await c.var.access();
        const row = await writableDocument(access, c.req.param('id'));
        const person = { owner: row.user_id, member: row.family_member_id };
        const records = await attachments.check(
          person,
          [input],
          row.user_id === access.userId,
          'record_id',
        );
        await attachments.attach(database.db, row.user_id, row.id, records);
        await noteShared(access, row, 'write');
        return c.json(await answerOne(access, row));
      })
      .get('/:id/file', async (c) => {
        const access = await c.var.access();
        const row = await documents.get(access, c.req.param('id'));
        if (!row) throw missing();
        await noteShared(access, row, 'read');
        const file = { owner: row.user_id, sha256: row.sha256, size: Number(row.size_bytes) };
        return sendFile(
          c,
          { ...file, type: row.mime_type, name: row.file_name },
          c.req.query('download') === undefined ? 'inline' : 'attachment',
        );
      })
      .get('/:id/view', async (c) => {
        const access = await c.var.access();
        const row = await documents.get(access, c.req.param('id'));
        if (!row) throw missing();
        await noteShared(access, row, 'read');
        return sendFile(c, viewOf(row), 'inline');
      })
      .get('/:id/thumbnail/:sha256', async (c) => {
        const access = await c.var.access();
        const row = await documents.get(access, c.req.param('id'));
        if (!row || !row.thumbnail_sha256 || row.thumbnail_sha256 !== c.req.param('sha256')) {
          throw missing();
        }
        await noteShared(access, row, 'read');
        // Content-addressed: its address changes with its bytes, so the browser keeps it.
        c.header('Cache-Control', 'private, max-age=31536000, immutable');
        return sendFile(
          c,
          {
            owner: row.user_id,
            sha256: row.thumbnail_sha256,
            size: Number(row.thumbnail_bytes),
            type: 'image/webp',
            name: `${row.title}.webp`,
          },
          'inline',
        );
      })
      .delete('/:id', async (c) => {
        const access = await c.var.access();
        const id = c.req.param('id');
        const row = await documents.get(access, id);
        if (!row) throw missing();
        const deleted = await documents.delete(access, id);
        if (!deleted) {
          // Readable but not writable: a viewer's.
          throw viewOnly();
        }
        await noteShared(access, deleted, 'write');
        await onDocumentDeleted(database, { documentId: id, userId: deleted.user_id });
        return c.body(null, 204);
      })
  );
}
