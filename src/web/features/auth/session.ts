/** The signed-in user's session, as the whole app reads it. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { onUnauthenticated } from '../../lib/api-request';
import { authApi } from '../../lib/auth-api';
import { clearAllDrafts } from '../../lib/drafts';
import { queryKeys } from '../../lib/query-client';
import { deleteUserCaches } from '../../service-worker/forget-cached-data';

/** The session query, also started by the app's entry before anything renders. */
export const sessionQuery = queryOptions({
  queryKey: queryKeys.session,
  queryFn: authApi.getSession,
  staleTime: 5 * 60_000,
});

export function useSession() {
  return useQuery(sessionQuery);
}

/** When any API call finds the session gone, forget the user; the guard sends them to /auth. */
export function useSessionExpiryWatch() {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      onUnauthenticated(() => {
        queryClient.setQueryData(queryKeys.session, null);
      }),
    [queryClient],
  );
}

/**
 * Forget everything cached about the user who just left: any cache of the origin's that is
 * not the app shell's, the drafts of unsaved forms, then the data in memory. Forgetting the
 * session sends the app to the sign-in screen, so it shows only once nothing of theirs is
 * left in the browser.
 */
export function useForgetUser() {
  const queryClient = useQueryClient();
  return async () => {
    await deleteUserCaches().catch(() => undefined);
    clearAllDrafts();
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'session' });
    queryClient.setQueryData(queryKeys.session, null);
  };
}

/** Signing out: whatever the server answers, this browser forgets the user and goes to /auth. */
export function useSignOut() {
  const navigate = useNavigate();
  const forgetUser = useForgetUser();
  return useMutation({
    mutationFn: authApi.signOut,
    onSettled: async () => {
      await forgetUser();
      navigate('/auth', { replace: true });
    },
  });
}

/** After a sign-in or sign-up: read the new session, then go to the timeline. */
export function useSignedIn() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async () => {
    await queryClient.fetchQuery({
      queryKey: queryKeys.session,
      queryFn: authApi.getSession,
      staleTime: 0,
    });
    navigate('/', { replace: true });
  };
}
