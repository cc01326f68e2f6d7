/**
 * Bringing one received file in (CONTRACT §6 'Bring records in', POST /api/import): its kind
 * told by its content (recognise-file.ts) and held to that kind's bound, read by its kind's
 * reader off the server's thread (import-file-thread.ts), its patient matched to a person
 * (match-person.ts), then previewed or written into that person as a FHIR import is
 * (fhir-import-store.ts), remembered in Import History (import-history.ts). The product's own
 * export, the whole account's, goes to data-transfer/import-user-data.ts as before, and is
 * remembered too.
 */
import type { HeldLock } from '../limits/account-locks';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Kysely } from 'kysely';
import { ApiError } from '../../shared/api-error';
import {
  archiveLimitBytes,
  dataExportSchema,
  IMPORT_TOO_LARGE,
  MAX_IMPORT_BYTES,
  type ImportSummary,
} from '../../shared/data-export';
import { DEFAULT_MEMBER_COLOR } from '../../shared/constants';
import type { FhirImportSummary } from '../../shared/fhir';
import type { ChangedChoice, ImportPreview } from '../../shared/import-preview';
import {
  NEW_MEMBER,
  type FileImportDone,
  type FileImportPreview,
  type ImportKind,
} from '../../shared/imports';
import { ownedRow } from '../access/scope';
import type { DB } from '../db/schema';
import { takeDocument, type DocumentIntake } from '../documents/document-intake';
import { previewFhirImport, saveFhirImport } from '../fhir/fhir-import-store';
import { ownPersonAmong } from '../access/persons';
import { badRequest } from '../http/errors';
import { validationErrorBody } from '../http/validation';
import { newId, nowTimestamp } from '../ids';
import type { Person } from '../persons/person-records';
import { importUserData, previewUserImport } from '../data-transfer/import-user-data';
import type { ImportArchive } from '../data-transfer/import-user-plan';
import { openArchive, type OpenedArchive } from '../data-transfer/import-archive';
import type { DocumentImportDependencies } from '../data-transfer/import-documents';
import type { ReadingFile, ReadOptions } from './file-readers';
import { finishImport, noteAdded, type ImportNote } from './import-history';
import { readFileOnThread } from './import-file-thread';
import { candidatesOf, matchPerson, mismatchOf, newMemberOf, type Candidate } from './match-person';
import { headOf, recogniseFile } from './recognise-file';
import { key, tr } from '../../shared/i18n/translate';
import { translateMessage } from '../i18n/server-language';

/** An Apple Health export (its zip, or its `export.xml`) is read as a stream: up to 2 GB. */
export const MAX_APPLE_HEALTH_BYTES = 2 * 1024 ** 3;

export const PERSON_REQUIRED = key('Person: choose who the records belong to');
export const EXPORT_HAS_NO_PERSON = key(
  'A Kin Health export holds the whole account: import it without choosing a person',
);

/** 'The file is too large to import (at most 32 MB)', for whichever bound. */
export const tooLargeFor = (maxBytes: number) =>
  new ApiError(
    413,
    maxBytes === MAX_IMPORT_BYTES
      ? IMPORT_TOO_LARGE
      : tr('The file is too large to import (at most {size} MB)', {
          size: Math.round(maxBytes / 1024 / 1024),
        }),
    'file',
  );

/** The most bytes a file may be received with, from its first bytes (before its kind is sure). */
export function receiveBound(first: Uint8Array, quotaBytes: number): number {
  if (first[0] === 0x50 && first[1] === 0x4b) {
    return Math.max(archiveLimitBytes(quotaBytes), MAX_APPLE_HEALTH_BYTES);
  }
  const text = new TextDecoder().decode(first.subarray(0, 64)).replace(/^\uFEFF/, '');
  return text.trimStart().startsWith('<') ? MAX_APPLE_HEALTH_BYTES : MAX_IMPORT_BYTES;
}

/** The bound of a file of this kind. */
function kindBound(kind: ImportKind, zip: boolean, quotaBytes: number): number {
  if (kind === 'apple-health') return MAX_APPLE_HEALTH_BYTES;
  if (kind === 'kin-health-export' && zip) return archiveLimitBytes(quotaBytes);
  return MAX_IMPORT_BYTES;
}

export interface FileImportRequest {
  userId: string;
  /** The person asked for: an id, 'new', or none (the file's patient decides). */
  personParam: string | undefined;
  preview: boolean;
  changed: ChangedChoice;
  confirm: boolean;
  fileName: string;
  options: ReadOptions;
  /** Where the received file is, and its size. */
  path: string;
  size: number;
  /** Told when the import must wait for its turn beside other heavy jobs, and when it begins. */
  turn?: ImportTurn;
  /** Aborts when the asker has gone: an import still waiting for its turn then gives it up. */
  signal?: AbortSignal;
}

export interface ImportTurn {
  waiting(): void;
  began(): Promise<void>;
}

/**
 * An import's wait for its turn, kept in its lock's row (GET /api/imports/turn: the import
 * page says 'Waiting for another import to finish'). Only what the page shows: a write of
 * it that fails changes nothing else.
 */
export function lockedTurn(lock: HeldLock): ImportTurn {
  let said: Promise<void> | undefined;
  return {
    waiting() {
      said = lock.setWaiting(true).catch(() => undefined);
    },
    async began() {
      if (!said) return;
      await said;
      await lock.setWaiting(false).catch(() => undefined);
    },
  };
}

export interface FileImportContext {
  db: Kysely<DB>;
  intake: DocumentIntake;
}

type Preview = FileImportPreview & Partial<ImportPreview>;
type Done = FileImportDone & Partial<ImportSummary> & Partial<FhirImportSummary>;

/** The product's own export file, its shape checked (its rows are checked by the import). */
function checkedExport(text: string) {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw badRequest(key('The file is not a Kin Health export (it is not JSON)'), 'file');
  }
  const file = dataExportSchema.safeParse(json);
  if (!file.success) {
    const body = validationErrorBody(file.error);
    throw badRequest(body.message, body.field);
  }
  return file.data;
}

/** The product's own export (JSON or zip): the whole account's, remembered as such. */
async function importExport(
  { db, intake }: FileImportContext,
  request: FileImportRequest,
  zip: boolean,
): Promise<Preview | Done> {
  const { userId, preview, changed } = request;
  if (request.personParam !== undefined) throw badRequest(EXPORT_HAS_NO_PERSON, 'person');
  const documents: DocumentImportDependencies = {
    database: intake.database,
    documents: intake.documents,
    intake,
  };
  let opened: OpenedArchive | undefined;
  try {
    let archive: ImportArchive | undefined;
    let text: string;
    if (zip) {
      opened = await openArchive(request.path);
      archive = { files: opened.files, deps: documents };
      text = opened.json;
    } else text = await readFile(request.path, 'utf8');
    const file = checkedExport(text);
    if (preview) {
      const answer = await previewUserImport(db, userId, file, archive);
      return {
        ...answer,
        kind: 'kin-health-export',
        file_name: request.fileName,
        patient: null,
        person_id: null,
        new_member: null,
        mismatch: null,
        problems: [],
      };
    }
    const history: ImportNote = {
      id: newId(),
      userId,
      kind: 'kin-health-export',
      fileName: request.fileName,
      person: null,
    };
    const summary = await importUserData(db, userId, file, changed, archive, history);
    const added = await finishImport(db, history);
    return {
      ...summary,
      import_id: history.id,
      added,
      family_member_id: null,
      summary: tr('Imported {count} records', { count: added }),
    };
  } finally {
    opened?.close();
  }
}

/** The person's row a `person=new` import makes from the file's patient. */
function newMemberRow(userId: string, read: Pick<ReadingFile, 'patient'>) {
  const member = newMemberOf(read.patient);
  if (!member) {
    throw badRequest(key('Person: the file names no one to make a new family member of'), 'person');
  }
  const now = nowTimestamp();
  const id = newId();
  const person: Candidate = {
    id,
    name: member.name,
    date_of_birth: member.date_of_birth,
    sex: member.sex,
    email: null,
    family_member_id: id,
  };
  const row = ownedRow(userId, {
    id,
    name: member.name.slice(0, 100),
    date_of_birth: member.date_of_birth,
    sex: member.sex,
    color: DEFAULT_MEMBER_COLOR,
    created_at: now,
    updated_at: now,
  });
  return { person, row };
}

/** Keeps a C-CDA as a document of its person, as an upload is; noted as the import's. */
async function keepOriginal(
  intake: DocumentIntake,
  request: FileImportRequest,
  person: Person,
  history: ImportNote,
) {
  const stored = await takeDocument(
    intake,
    createReadStream(request.path),
    {
      owner: request.userId,
      member: person.family_member_id,
      title: request.fileName.replace(/\.[A-Za-z0-9]{1,5}$/, '').slice(0, 200) || 'C-CDA',
      document_type: 'Other',
      document_date: null,
      file_name: request.fileName,
      records: [],
    },
    request.size,
    true,
  );
  await noteAdded(intake.database.db, history, 'document', [stored.id]);
}

/**
 * A file read by its kind's reader: matched to a person, previewed or written as its records
 * come. The reading is closed whatever happens.
 */
export async function importRead(
  context: FileImportContext,
  request: FileImportRequest,
  read: ReadingFile,
): Promise<Preview | Done> {
  try {
    return await importReading(context, request, read);
  } finally {
    await read.records.close();
  }
}

async function importReading(
  { db, intake }: FileImportContext,
  request: FileImportRequest,
  read: ReadingFile,
): Promise<Preview | Done> {
  const { userId, personParam, preview } = request;
  const candidates = await candidatesOf(db, userId);
  let person: Candidate | undefined;
  let made: ReturnType<typeof newMemberRow> | undefined;
  if (personParam === NEW_MEMBER) made = newMemberRow(userId, read);
  else if (personParam !== undefined) {
    person = ownPersonAmong(candidates, personParam);
  } else if (read.patient) person = matchPerson(read.patient, candidates);
  const { records } = read;

  if (preview) {
    // Counted as for a new member when no one is chosen: nothing of theirs is here yet.
    const id = newId();
    const counted = person ??
      made?.person ?? {
        id,
        name: '',
        date_of_birth: null,
        sex: null,
        email: null,
        family_member_id: id,
      };
    const answer = await previewFhirImport(db, userId, counted, records, intake);
    return {
      ...answer,
      kind: read.kind,
      file_name: request.fileName,
      patient: read.patient && {
        name: read.patient.name,
        birth_date: read.patient.birth_date,
        sex: read.patient.sex,
      },
      person_id: person?.id ?? null,
      new_member: person ? null : newMemberOf(read.patient),
      mismatch: person ? mismatchOf(read.patient, person) : null,
      problems: read.problems,
    };
  }
  const target = person ?? made?.person;
  if (!target) throw badRequest(PERSON_REQUIRED, 'person');
  if (read.problems.length > 0 && !request.confirm) {
    const n = read.problems.length;
    throw badRequest(
      tr('{count} rows of the file could not be read: import the rest only if you confirm', {
        count: n,
      }),
      'confirm',
    );
  }
  const history: ImportNote = {
    id: newId(),
    userId,
    kind: read.kind,
    fileName: request.fileName,
    person: { id: target.id, name: target.name, family_member_id: target.family_member_id },
    createdMemberId: made?.person.id ?? null,
  };
  const summary = await saveFhirImport(db, userId, target, records, request.changed, intake, {
    history,
    newMember: made?.row,
  });
  let kept = '';
  if (read.kind === 'ccda') {
    try {
      await keepOriginal(intake, request, target, history);
    } catch (error) {
      // The records are in; the original not kept says why (the storage limit, say).
      if (!(error instanceof ApiError)) throw error;
      kept = `; ${tr('the file itself was not kept as a document ({reason})', { reason: translateMessage(error.message) })}`;
    }
  }
  const all = await finishImport(db, history);
  // 'Imported {n} records' counts what the preview counted as new: not the family member
  // made for the file, nor the C-CDA kept beside its records (both in History, both undone).
  const keptOriginal = read.kind === 'ccda' && kept === '';
  const added = all - (made ? 1 : 0) - (keptOriginal ? 1 : 0);
  return {
    ...summary,
    import_id: history.id,
    added,
    already_here: summary.already_imported,
    family_member_id: made?.person.id ?? null,
    summary: summary.summary + kept,
  };
}

/** Brings a received file in: recognised, bounded, read, then previewed or written. */
export async function importReceivedFile(
  context: FileImportContext,
  request: FileImportRequest,
): Promise<Preview | Done> {
  const head = await headOf(request.path);
  const { kind, zip } = await recogniseFile(request.path, head);
  const bound = kindBound(kind, zip, context.intake.quotaBytes);
  if (request.size > bound) throw tooLargeFor(bound);
  // Read and written in its turn beside the other heavy jobs (KIN_MEMORY_MB).
  return context.intake.heavy.run(
    async () => {
      await request.turn?.began();
      if (kind === 'kin-health-export') return importExport(context, request, zip);
      const read = await readFileOnThread(
        kind,
        { path: request.path, name: request.fileName, size: request.size },
        request.options,
      );
      if (!('records' in read)) throw badRequest(read.message, 'file');
      return importRead(context, request, read);
    },
    request.turn?.waiting,
    request.signal,
  );
}
