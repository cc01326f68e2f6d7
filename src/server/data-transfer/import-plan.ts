/**
 * What an import would do, worked out before anything is written: each record a file
 * holds is new, already here, or here but changed. A record is recognised
 *   1. by the product's own id, which its JSON and FHIR exports carry (a file of this
 *      account coming back),
 *   2. by the resource an earlier FHIR import of the same file brought it in from,
 *   3. by its content: the same type, person, date and name (case and spaces aside), for a
 *      file from elsewhere or from another account.
 * A record that is recognised is 'already here' when every field is equal, else 'changed';
 * each record here answers for one record of the file at most.
 */
import type { Kysely } from 'kysely';
import type { RecordDefinition } from '../../shared/records/definition';
import type { ImportCounts, ImportTypeCounts } from '../../shared/import-preview';
import { ownedRows } from '../access/scope';
import type { DB } from '../db/schema';
import { recordRows } from '../records/record-rows';

export interface IncomingRecord {
  /** The id the file gives the record: this product's id when the file is its own export. */
  id?: string;
  /** The resource a FHIR import read it from. */
  sourceId?: string;
  /** The record's values, as its type's schema outputs them. */
  values: Record<string, unknown>;
}

export type RecordMatch =
  { kind: 'new' } | { kind: 'same'; id: string } | { kind: 'changed'; id: string };

/** The match of every new record: one object, not one per record of a large file. */
const NEW_RECORD: RecordMatch = Object.freeze({ kind: 'new' });

/** Records matched (or made into rows) between two turns of the event loop. */
export const MATCH_SLICE = 500;

/**
 * Waits for the event loop's next turn: other requests' work runs meanwhile. A timer, not
 * setImmediate: the loop then waits for I/O (a millisecond at most) rather than only
 * glancing at it, and requests that arrive meanwhile are answered before the import's next step.
 */
export const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** A value as compared: empty is empty whatever its spelling, flags and numbers as text. */
const comparable = (value: unknown): string | null =>
  value === null || value === undefined || value === '' ? null : String(value);

const nameOf = (value: unknown): string =>
  typeof value === 'string' ? value.trim().replace(/\s+/g, ' ').toLowerCase() : '';

/** What makes two records 'the same record' when no id says so: date and name. */
export function contentKey(definition: RecordDefinition, values: Record<string, unknown>): string {
  const dateField = definition.timeline?.dateField;
  const date = dateField ? (comparable(values[dateField]) ?? '') : '';
  return `${date}\n${nameOf(values[definition.titleField])}`;
}

/** The columns compared: the record's own fields, not whose it is. */
function comparedColumns(definition: RecordDefinition): string[] {
  return recordRows(definition).fieldNames.filter((name) => name !== 'family_member_id');
}

/**
 * How incoming records of one type stand against the records of one person (for a type not
 * linked to members, the account's), a slice at a time: the person's records are read once,
 * and each of them answers for one incoming record at most, across every slice. `sources`
 * maps FHIR source ids of earlier imports into this person to the records they made.
 */
export class RecordMatcher<T = IncomingRecord> {
  private readonly taken = new Set<Record<string, unknown>>();
  private readonly toRow;

  private constructor(
    private readonly definition: RecordDefinition,
    private readonly columns: string[],
    private readonly byId: ReadonlyMap<string, Record<string, unknown>>,
    private readonly byContent: ReadonlyMap<string, Record<string, unknown>[]>,
    private readonly sources: ReadonlyMap<string, string>,
    // How a record of the file reads as an incoming one: a view made as each is matched, not
    // a second copy of a large file's records held for the whole import.
    private readonly read: (record: T) => IncomingRecord,
  ) {
    this.toRow = recordRows(definition).toRow;
  }

  /** A matcher with the person's records of the definition's type read. */
  static async load<T = IncomingRecord>(
    db: Kysely<DB>,
    userId: string,
    definition: RecordDefinition,
    familyMemberId: string | null,
    sources: ReadonlyMap<string, string> = new Map(),
    read: (record: T) => IncomingRecord = (record) => record as IncomingRecord,
  ): Promise<RecordMatcher<T>> {
    const columns = comparedColumns(definition);
    let query = ownedRows(db, definition.table, userId).select(['id', ...columns] as never[]);
    if (definition.memberLinked) {
      query = query.where('family_member_id', familyMemberId === null ? 'is' : '=', familyMemberId);
    }
    const existing = (await query.execute()) as Record<string, unknown>[];
    const byId = new Map(existing.map((row) => [row.id as string, row]));
    const byContent = new Map<string, Record<string, unknown>[]>();
    for (const row of existing) {
      const key = contentKey(definition, row);
      const rows = byContent.get(key);
      if (rows) rows.push(row);
      else byContent.set(key, [row]);
    }
    return new RecordMatcher(definition, columns, byId, byContent, sources, read);
  }

  private free(row: Record<string, unknown> | undefined) {
    return row && !this.taken.has(row) ? row : undefined;
  }

  /** How each record of the slice stands, in its order. */
  async match(incoming: readonly T[]): Promise<RecordMatch[]> {
    const { definition, columns, byId, byContent, sources, taken } = this;
    const matches: RecordMatch[] = [];
    for (const [index, item] of incoming.entries()) {
      // Some hundreds of records at a time: the server answers others in between.
      if (index % MATCH_SLICE === MATCH_SLICE - 1) await nextTurn();
      const record = this.read(item);
      const found =
        this.free(record.id === undefined ? undefined : byId.get(record.id)) ??
        this.free(
          record.sourceId === undefined ? undefined : byId.get(sources.get(record.sourceId) ?? ''),
        ) ??
        byContent.get(contentKey(definition, record.values))?.find((row) => !taken.has(row));
      if (!found) {
        matches.push(NEW_RECORD);
        continue;
      }
      taken.add(found);
      const row = this.toRow(record.values);
      const equal = columns.every((name) => comparable(row[name]) === comparable(found[name]));
      matches.push({ kind: equal ? 'same' : 'changed', id: found.id as string });
    }
    return matches;
  }
}

/** How each incoming record of one type stands (RecordMatcher), all at once. */
export async function matchRecords<T = IncomingRecord>(
  db: Kysely<DB>,
  userId: string,
  definition: RecordDefinition,
  familyMemberId: string | null,
  incoming: readonly T[],
  sources: ReadonlyMap<string, string> = new Map(),
  read?: (record: T) => IncomingRecord,
): Promise<RecordMatch[]> {
  if (incoming.length === 0) return [];
  const matcher = await RecordMatcher.load(db, userId, definition, familyMemberId, sources, read);
  return matcher.match(incoming);
}

/** Adds one type's matches to the counts of a preview. */
export function countMatches(counts: ImportCounts, type: string, matches: readonly RecordMatch[]) {
  const tally: ImportTypeCounts = counts[type] ?? { new: 0, already_here: 0, changed: 0 };
  for (const match of matches) {
    if (match.kind === 'new') tally.new += 1;
    else if (match.kind === 'same') tally.already_here += 1;
    else tally.changed += 1;
  }
  if (tally.new + tally.already_here + tally.changed > 0) counts[type] = tally;
}
