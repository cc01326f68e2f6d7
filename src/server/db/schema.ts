/**
 * Table types for the typed query builder. Auth tables belong to better-auth and keep its
 * column names; the product's tables keep SPEC.md's names.
 */
import type { Generated } from 'kysely';

export interface UserTable {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean | number;
  image: string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
  /** The Friends & Family Passcode given at sign-up, hashed. */
  family_passcode: string | null;
}

export interface SessionTable {
  id: string;
  expiresAt: Date | string;
  token: string;
  createdAt: Date | string;
  updatedAt: Date | string;
  ipAddress: string | null;
  userAgent: string | null;
  userId: string;
}

export interface FamilyMembersTable {
  id: string;
  user_id: string;
  name: string;
  date_of_birth: string | null;
  color: string;
  created_at: string;
  updated_at: string;
}

/** Records per user, type and family member ('' for the user's own), kept by triggers. */
export interface RecordCountsTable {
  user_id: string;
  record_table: string;
  family_member_id: string;
  total: number;
}

export interface MigrationsTable {
  name: string;
  timestamp: Generated<string>;
}

export interface DB {
  user: UserTable;
  session: SessionTable;
  family_members: FamilyMembersTable;
  record_counts: RecordCountsTable;
}

export type Engine = 'sqlite' | 'postgres';
