/** Family members: the people a user keeps records for, read and written through access. */
import type { Kysely } from 'kysely';
import type { FamilyMember, FamilyMemberValues } from '../../shared/family-members';
import { deleteOwned, ownedRow, ownedRows, updateOwned } from '../access/scope';
import { prepareQuery } from '../db/prepared-query';
import type { DB } from '../db/schema';
import { isId, newId, nowTimestamp } from '../ids';

export function createFamilyMemberRepository(db: Kysely<DB>) {
  const columns = ['id', 'user_id', 'name', 'date_of_birth', 'sex', 'color', 'created_at'] as const;
  // Asked on every write of a member's record: built once (see db/prepared-query.ts).
  const findMember = prepareQuery(db, (values: { userId: string; id: string }) =>
    ownedRows(db, 'family_members', values.userId).select(columns).where('id', '=', values.id),
  );

  return {
    /** In creation order (SPEC.md §7). */
    list(userId: string): Promise<FamilyMember[]> {
      return ownedRows(db, 'family_members', userId)
        .select(columns)
        .orderBy('created_at')
        .orderBy('id')
        .execute() as Promise<FamilyMember[]>;
    },

    async get(userId: string, id: string): Promise<FamilyMember | undefined> {
      if (!isId(id)) return undefined;
      const [member] = await findMember({ userId, id });
      return member as FamilyMember | undefined;
    },

    /** Whether the member exists and is this user's. */
    async owns(userId: string, id: string): Promise<boolean> {
      return (await this.get(userId, id)) !== undefined;
    },

    create(userId: string, values: FamilyMemberValues): Promise<FamilyMember> {
      const now = nowTimestamp();
      return db
        .insertInto('family_members')
        .values(ownedRow(userId, { id: newId(), ...values, created_at: now, updated_at: now }))
        .returning(columns)
        .executeTakeFirstOrThrow() as Promise<FamilyMember>;
    },

    async update(
      userId: string,
      id: string,
      values: FamilyMemberValues,
    ): Promise<FamilyMember | undefined> {
      if (!isId(id)) return undefined;
      return updateOwned(db, 'family_members', userId)
        .set({ ...values, updated_at: nowTimestamp() })
        .where('id', '=', id)
        .returning(columns)
        .executeTakeFirst() as Promise<FamilyMember | undefined>;
    },

    /** Deletes the member and, through the foreign keys, every record linked to them. */
    async delete(userId: string, id: string): Promise<boolean> {
      if (!isId(id)) return false;
      const result = await deleteOwned(db, 'family_members', userId)
        .where('id', '=', id)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}

export type FamilyMemberRepository = ReturnType<typeof createFamilyMemberRepository>;
