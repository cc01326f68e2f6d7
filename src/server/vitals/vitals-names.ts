/**
 * How a vitals entry is named where it is listed among other records (the timeline, search):
 * by its measures, in the reader's units ('Weight 160.2 lb · BP 120/80 mmHg'). Its row is
 * read for the entries listed only, by id and owner, after the list is chosen through the
 * access module: what is read here was already in the reader's scope.
 */
import type { Kysely } from 'kysely';
import { summariseVitals, vitalColumns } from '../../shared/records/vitals';
import { ownedRows } from '../access/scope';
import type { DB } from '../db/schema';

export interface NamedVitals {
  /** The entry's measures in words. */
  name: string;
  notes: string | null;
}

/** The names of the listed vitals entries (each with its owner), by id. */
export async function vitalsNames(
  db: Kysely<DB>,
  readerId: string,
  entries: readonly { id: string; user_id: string }[],
): Promise<Map<string, NamedVitals>> {
  const named = new Map<string, NamedVitals>();
  if (entries.length === 0) return named;
  const owners = [...new Set(entries.map((entry) => entry.user_id))];
  const [reader, ...pages] = await Promise.all([
    ownedRows(db, 'user', readerId).select('units').executeTakeFirst(),
    ...owners.map(
      (owner) =>
        ownedRows(db, 'vitals', owner)
          .select(['id', 'notes', ...vitalColumns] as never[])
          .where(
            'id' as never,
            'in',
            entries.filter((entry) => entry.user_id === owner).map((entry) => entry.id) as never,
          )
          .execute() as Promise<Record<string, unknown>[]>,
    ),
  ]);
  const units = reader?.units === 'us' ? 'us' : 'metric';
  for (const row of pages.flat()) {
    named.set(row.id as string, {
      name: summariseVitals(row, units),
      notes: (row.notes as string | null) ?? null,
    });
  }
  return named;
}
