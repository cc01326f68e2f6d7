/**
 * Data hooks of every record type: a paged list (per tab and member), one record, and
 * saving or deleting one. Driven by the type's definition.
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { localToday } from '../../../shared/dates';
import type {
  RecordDefinition,
  RecordInput,
  StoredRecord,
} from '../../../shared/records/definition';
import { recordsApi } from '../../lib/api';
import { queryKeys } from '../../lib/query-client';
import { showError } from '../../lib/toast';

export function useRecordList<D extends RecordDefinition>(
  definition: D,
  options: { view?: string; member?: string } = {},
) {
  const api = recordsApi(definition);
  const today = localToday();
  const params = { view: options.view, member: options.member, today };
  const query = useInfiniteQuery({
    queryKey: queryKeys.recordList(definition.type, params),
    queryFn: ({ pageParam }) => api.list({ ...params, offset: pageParam }),
    initialPageParam: 0,
    getNextPageParam: (page) => page.next ?? undefined,
  });

  useEffect(() => {
    if (query.error) showError(definition.messages.loadListError, query.error);
  }, [query.error, definition]);

  const items = useMemo(() => query.data?.pages.flatMap((page) => page.items) ?? [], [query.data]);
  const counts = query.data?.pages[0]?.counts;
  return { ...query, items, counts };
}

export function useRecord<D extends RecordDefinition>(definition: D, id: string | undefined) {
  return useQuery({
    queryKey: queryKeys.record(definition.type, id ?? ''),
    queryFn: () => recordsApi(definition).get(id ?? ''),
    enabled: id !== undefined,
  });
}

function useInvalidateRecords(definition: RecordDefinition) {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.records(definition.type) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.searchAll });
    if (definition.timeline)
      void queryClient.invalidateQueries({ queryKey: queryKeys.timelineAll });
  };
}

export function useSaveRecord<D extends RecordDefinition>(definition: D) {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateRecords(definition);
  return useMutation({
    mutationFn: ({ id, input }: { id?: string; input: RecordInput<D> }) =>
      id ? recordsApi(definition).update(id, input) : recordsApi(definition).create(input),
    onSuccess: (record: StoredRecord<D>) => {
      queryClient.setQueryData(queryKeys.record(definition.type, record.id), record);
      invalidate();
    },
  });
}

export function useDeleteRecord<D extends RecordDefinition>(definition: D) {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateRecords(definition);
  return useMutation({
    mutationFn: (id: string) => recordsApi(definition).remove(id),
    onSuccess: (_result, id) => {
      queryClient.removeQueries({ queryKey: queryKeys.record(definition.type, id) });
      invalidate();
    },
  });
}
