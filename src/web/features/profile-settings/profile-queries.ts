/** The signed-in user's profile: full name and email. */
import { useEffect } from 'react';
import { currentLanguageCode, switchLanguage } from '../../lib/i18n';
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

/**
 * The signed-in account's language, where this browser speaks another: an account that
 * chose its language on another device reads it here too.
 */
export function useAccountLanguage() {
  const profile = useProfile();
  const chosen = profile.data?.language;
  useEffect(() => {
    if (chosen && chosen !== currentLanguageCode()) void switchLanguage(chosen, true);
  }, [chosen]);
}
