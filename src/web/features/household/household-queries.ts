/**
 * The household: the grants the user gave, the persons shared with them, and what that
 * means for a record on screen (whose it is, and whether the user may change it).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AcceptGrantInput, GrantInput, SharedPerson } from '../../../shared/household';
import { householdApi } from '../../lib/api';
import { queryKeys } from '../../lib/query-client';
import { useSession } from '../auth/session';

export function useHousehold() {
  return useQuery({ queryKey: queryKeys.household, queryFn: householdApi.get });
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
  return () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.household });
    void queryClient.invalidateQueries({ queryKey: ['records'] });
    void queryClient.invalidateQueries({ queryKey: queryKeys.timelineAll });
  };
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
  `${person.name} (shared by ${person.ownerName})`;
