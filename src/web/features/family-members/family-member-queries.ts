/** Family members: the list every filter strip and picker reads, and its changes. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FamilyMemberInput } from '../../../shared/family-members';
import { familyMembersApi } from '../../lib/api';
import { queryKeys } from '../../lib/query-client';

export function useFamilyMembers() {
  return useQuery({ queryKey: queryKeys.familyMembers, queryFn: familyMembersApi.list });
}

export function useSaveFamilyMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: FamilyMemberInput }) =>
      id ? familyMembersApi.update(id, input) : familyMembersApi.create(input),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.familyMembers });
      // Member names and colours show on record cards and the timeline.
      void queryClient.invalidateQueries({ queryKey: ['records'] });
      void queryClient.invalidateQueries({ queryKey: queryKeys.timelineAll });
    },
  });
}

export function useDeleteFamilyMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: familyMembersApi.remove,
    onSuccess: async () => {
      // The member's records went with them.
      void queryClient.invalidateQueries({ queryKey: ['records'] });
      void queryClient.invalidateQueries({ queryKey: queryKeys.timelineAll });
      // Awaited: the card is gone before the confirm closes, so focus goes to the title
      // rather than to a Delete button about to vanish.
      await queryClient.invalidateQueries({ queryKey: queryKeys.familyMembers });
    },
  });
}
