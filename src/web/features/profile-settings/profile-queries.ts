/** The signed-in user's profile: full name and email. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { profileApi } from '../../lib/api';
import { queryKeys } from '../../lib/query-client';
import { DEFAULT_UNITS, type UnitSystem } from '../../../shared/units';

export function useProfile() {
  return useQuery({ queryKey: queryKeys.profile, queryFn: profileApi.get });
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: profileApi.update,
    onSuccess: (profile) => {
      queryClient.setQueryData(queryKeys.profile, profile);
      void queryClient.invalidateQueries({ queryKey: queryKeys.session });
    },
  });
}

/** The units the signed-in account reads measures in (Metric until the profile is known). */
export function useUnits(): UnitSystem {
  return useProfile().data?.units ?? DEFAULT_UNITS;
}
