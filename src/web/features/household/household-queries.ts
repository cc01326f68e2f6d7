/**
 * The household: the grants the user gave, the persons shared with them, and what that
 * means for a record on screen (whose it is, and whether the user may change it).
 */
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type {
  AcceptGrantInput,
  GrantInput,
  Household,
  SharedPerson,
} from '../../../shared/household';
import { tr } from '../../../shared/i18n/translate';
import { householdApi } from '../../lib/api';
import { queryKeys } from '../../lib/query-client';
import { useSession } from '../auth/session';

export function useHousehold() {
  return useQuery({ queryKey: queryKeys.household, queryFn: householdApi.get });
}

/** How often a screen left open in view asks again what is shared, with the user and by them. */
export const HOUSEHOLD_REFRESH_MS = 30_000;

/**
 * Everything a change of the household can alter: what the user may read (records, the
 * timeline, search, documents, schedules) and the household itself. Only who is signed in
 * stays as it is.
 */
function invalidateShared(queryClient: QueryClient) {
  return queryClient.invalidateQueries({
    predicate: (query) => query.queryKey[0] !== queryKeys.session[0],
  });
}

/** What of the household changes what the user may read: the persons shared with them. */
const receivedSignature = (household: Household) =>
  JSON.stringify(
    household.received.map((person) => [person.grantId, person.role, person.accessEnds]),
  );

/**
 * Keeps the household of a signed-in screen current without a reload: asked again whenever
 * the app comes back into view (another account may have shared, accepted or removed access
 * meanwhile) and every HOUSEHOLD_REFRESH_MS while it stays in view. When the persons shared
 * with the user change, every screen's data is asked for again.
 */
export function HouseholdWatch() {
  const queryClient = useQueryClient();
  const household = useQuery({
    queryKey: queryKeys.household,
    queryFn: householdApi.get,
    staleTime: 0,
    refetchInterval: HOUSEHOLD_REFRESH_MS,
  });
  const seen = useRef<string | undefined>(undefined);
  const signature = household.data ? receivedSignature(household.data) : undefined;
  useEffect(() => {
    if (signature === undefined) return;
    if (seen.current !== undefined && seen.current !== signature) {
      void invalidateShared(queryClient);
    }
    seen.current = signature;
  }, [signature, queryClient]);
  return null;
}

/** Whether grants to the user's email wait for an Acceptance Code (false while loading). */
export function useHasPendingGrants(): boolean {
  return (useHousehold().data?.pendingForYou ?? 0) > 0;
}

/** The persons shared with the user (none while loading). */
export function useSharedPersons(): SharedPerson[] {
  return useHousehold().data?.received ?? [];
}

function useInvalidateShared() {
  const queryClient = useQueryClient();
  return () => void invalidateShared(queryClient);
}

export function useGrantAccess() {
  const invalidate = useInvalidateShared();
  return useMutation({
    mutationFn: (input: GrantInput) => householdApi.grant(input),
    onSuccess: invalidate,
  });
}

/** The grantee's side: entering the one-time Acceptance Code the owner passed on. */
export function useAcceptGrant() {
  const invalidate = useInvalidateShared();
  return useMutation({
    mutationFn: (input: AcceptGrantInput) => householdApi.accept(input),
    onSuccess: invalidate,
  });
}

export function useRemoveAccess() {
  const invalidate = useInvalidateShared();
  return useMutation({ mutationFn: householdApi.remove, onSuccess: invalidate });
}

/** Whose a record is, as the household sees it. */
export interface RecordOwnership {
  /** The person shared with the user that the record is about, if it is not their own. */
  shared: SharedPerson | undefined;
  /** Whether the user may change it: their own, or a person shared with them as Editor. */
  canChange: boolean;
}

/** Tells, for a record on screen, whether it is shared with the user and may be changed. */
export function useRecordOwnership(): (record: {
  user_id?: string;
  family_member_id?: string | null;
}) => RecordOwnership {
  const session = useSession();
  const shared = useSharedPersons();
  const me = session.data?.user.id;
  return (record) => {
    if (!record.user_id || record.user_id === me) return { shared: undefined, canChange: true };
    const person = shared.find(
      (candidate) =>
        candidate.ownerId === record.user_id &&
        candidate.familyMemberId === (record.family_member_id ?? null),
    );
    return { shared: person, canChange: person?.role === 'editor' };
  };
}

/** How a shared person is named in pickers: whose they are. */
export const sharedPersonLabel = (person: SharedPerson) =>
  tr('{name} (shared by {owner})', { name: person.name, owner: person.ownerName });
