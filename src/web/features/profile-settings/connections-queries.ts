/**
 * Profile Settings' 'Connections' (CONTRACT §6): the portals offered and the account's
 * connections to them, asked again every 2 s while a sync runs on the server; connecting and
 * reconnecting send the browser to the portal's sign-in, which sends it back to Profile
 * Settings; 'Sync Now' starts a sync; 'Disconnect' forgets the connection (the records stay).
 */
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Connection, ConnectionsAnswer, ConnectStarted } from '../../../shared/connections';
import { connectionsApi } from './connections-api';
import { leaveFor } from '../../lib/leave-for';
import { queryKeys } from '../../lib/query-client';

export const CONNECTIONS_KEY = ['connections'] as const;

/** How often the list is asked again while a connection is syncing. */
export const SYNC_POLL_MS = 2000;

export const isSyncing = (answer: ConnectionsAnswer | undefined) =>
  answer?.connections.some((connection) => connection.status === 'syncing') ?? false;

export function useConnections() {
  return useQuery({
    queryKey: CONNECTIONS_KEY,
    queryFn: connectionsApi.list,
    refetchInterval: (query) => (isSyncing(query.state.data) ? SYNC_POLL_MS : false),
  });
}

/** The list with one connection replaced by (or, with null, without) its new state. */
function changeConnection(queryClient: QueryClient, id: string, next: Connection | null) {
  queryClient.setQueryData<ConnectionsAnswer>(CONNECTIONS_KEY, (answer) =>
    answer
      ? {
          ...answer,
          connections: answer.connections.flatMap((connection) =>
            connection.id !== id ? [connection] : next ? [next] : [],
          ),
        }
      : answer,
  );
}

/** What a finished sync may have brought in: the records, the timeline and search read anew. */
export function refreshImportedRecords(queryClient: QueryClient) {
  for (const queryKey of [['records'], queryKeys.timelineAll, queryKeys.searchAll])
    void queryClient.invalidateQueries({ queryKey });
}

/**
 * A mutation that sends the browser to the portal's sign-in: successful, it stays so (the
 * button busy) while the browser leaves; back with the browser's Back button (the page shown
 * again as it was left), it is ready again.
 */
function useLeavingForPortal<Variables>(start: (variables: Variables) => Promise<ConnectStarted>) {
  const mutation = useMutation({
    mutationFn: start,
    onSuccess: ({ authorize_url }) => leaveFor(authorize_url),
  });
  const { reset } = mutation;
  useEffect(() => {
    const shownAgain = (event: PageTransitionEvent) => {
      if (event.persisted) reset();
    };
    window.addEventListener('pageshow', shownAgain);
    return () => window.removeEventListener('pageshow', shownAgain);
  }, [reset]);
  return mutation;
}

/** 'Connect': the browser goes on to the portal's sign-in. */
export const useConnect = () => useLeavingForPortal(connectionsApi.connect);

/** 'Reconnect': the portal's sign-in again, for a connection whose sign-in has ended. */
export const useReconnect = () => useLeavingForPortal(connectionsApi.reconnect);

/** 'Sync Now': the connection answers 'syncing', and the list is asked again until it is done. */
export function useSyncConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: connectionsApi.sync,
    onSuccess: (connection) => changeConnection(queryClient, connection.id, connection),
  });
}

/** 'Disconnect': the connection is gone from the list; its records stay. */
export function useDisconnect() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: connectionsApi.disconnect,
    onSuccess: (_answer, id) => {
      changeConnection(queryClient, id, null);
      void queryClient.invalidateQueries({ queryKey: CONNECTIONS_KEY });
    },
  });
}
