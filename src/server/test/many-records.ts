/**
 * Records written straight to their table, many at once, as an import of many writes them:
 * for tests of what a read does with thousands of rows, without thousands of requests.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';

export async function writeManyRecords(
  db: Kysely<DB>,
  table: 'allergies' | 'conditions',
  owner: { userId: string; memberId: string | null },
  records: Record<string, unknown>[],
): Promise<void> {
  const now = new Date().toISOString();
  const rows = records.map((values) => ({
    id: randomUUID(),
    user_id: owner.userId,
    family_member_id: owner.memberId,
    created_at: now,
    updated_at: now,
    ...values,
  }));
  for (let i = 0; i < rows.length; i += 200) {
    await db
      .insertInto(table)
      .values(rows.slice(i, i + 200) as never)
      .execute();
  }
}
