/**
 * The account-security data of the settings screen: the second factor, the active
 * sessions and the recent security activity, and the changes made to them.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { passkeysApi } from './passkeys-api';
import { profileApi } from '../../lib/api';
import { securityApi } from './security-api';
import { queryKeys } from '../../lib/query-client';
import type { FreshProof } from '../../../shared/account-security';

export const securityKeys = {
  all: ['security'] as const,
  factors: ['security', 'factors'] as const,
  sessions: ['security', 'sessions'] as const,
  activity: ['security', 'activity'] as const,
  passkeys: ['security', 'passkeys'] as const,
  freshProof: ['security', 'fresh-proof'] as const,
};

/**
 * What a fresh proof of this account takes (a password, a code, or a recent sign-in), read
 * anew each time a confirm dialog that asks one opens.
 */
export function useFreshProofNeeds(enabled: boolean) {
  return useQuery({
    queryKey: securityKeys.freshProof,
    queryFn: profileApi.freshProofNeeds,
    enabled,
    staleTime: 0,
  });
}

export function useFactors() {
  return useQuery({ queryKey: securityKeys.factors, queryFn: securityApi.factors });
}

export function useActiveSessions() {
  return useQuery({ queryKey: securityKeys.sessions, queryFn: securityApi.sessions });
}

export function useSecurityActivity() {
  return useQuery({ queryKey: securityKeys.activity, queryFn: securityApi.activity });
}

/**
 * After any security change: better-auth swaps the session when two-factor sign-in goes on
 * or off, so the session (and which one is this device) is read again with the rest.
 */
function useRefreshSecurity() {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: securityKeys.all }),
      queryClient.invalidateQueries({ queryKey: queryKeys.session }),
    ]);
  };
}

export function useEnableTwoFactor() {
  return useMutation({ mutationFn: securityApi.enableTwoFactor });
}

export function useConfirmTwoFactor() {
  const refresh = useRefreshSecurity();
  return useMutation({ mutationFn: securityApi.confirmTwoFactor, onSuccess: refresh });
}

export function useDisableTwoFactor() {
  const refresh = useRefreshSecurity();
  return useMutation({ mutationFn: securityApi.disableTwoFactor, onSuccess: refresh });
}

export function useEndSession() {
  const refresh = useRefreshSecurity();
  return useMutation({ mutationFn: securityApi.endSession, onSuccess: refresh });
}

export function useEndOtherSessions() {
  const refresh = useRefreshSecurity();
  return useMutation({ mutationFn: securityApi.endOtherSessions, onSuccess: refresh });
}

export function useChangeEmail() {
  const refresh = useRefreshSecurity();
  return useMutation({ mutationFn: securityApi.changeEmail, onSuccess: refresh });
}

export function useChangePassword() {
  const refresh = useRefreshSecurity();
  return useMutation({ mutationFn: securityApi.changePassword, onSuccess: refresh });
}

export function usePasskeys() {
  return useQuery({ queryKey: securityKeys.passkeys, queryFn: passkeysApi.list });
}

/** Adds a passkey of this device (the browser asks for the fingerprint, face or PIN). */
export function useAddPasskey() {
  const refresh = useRefreshSecurity();
  return useMutation({
    mutationFn: async (proof: FreshProof) =>
      (await import('../auth/passkey-ceremony')).addPasskey(proof),
    onSuccess: refresh,
  });
}

export function useRenamePasskey() {
  const refresh = useRefreshSecurity();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) => passkeysApi.rename(id, name),
    onSuccess: refresh,
  });
}

export function useRemovePasskey() {
  const refresh = useRefreshSecurity();
  return useMutation({
    mutationFn: ({ id, proof }: { id: string; proof: FreshProof }) => passkeysApi.remove(id, proof),
    onSuccess: refresh,
  });
}
