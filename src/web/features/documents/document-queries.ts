/** Documents: lists, one document, the storage used, and deleting one. */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { documentsApi, type DocumentListQuery } from '../../lib/api';
import { queryKeys } from '../../lib/query-client';

export function useDocuments(query: DocumentListQuery, enabled = true) {
  return useQuery({
    queryKey: queryKeys.documentList(query),
    queryFn: () => documentsApi.list(query),
    enabled,
  });
}

/** /documents' list, fifty at a time. */
export function useDocumentPages(query: Omit<DocumentListQuery, 'offset'>) {
  return useInfiniteQuery({
    queryKey: queryKeys.documentList({ ...query, paged: true }),
    queryFn: ({ pageParam }) => documentsApi.list({ ...query, offset: pageParam }),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.documents.length, 0);
      return loaded < last.total ? loaded : undefined;
    },
  });
}

export function useDocument(id: string) {
  return useQuery({ queryKey: queryKeys.document(id), queryFn: () => documentsApi.get(id) });
}

/** The document's text: asked again every few seconds until it has been read. */
export function useDocumentText(id: string) {
  return useQuery({
    queryKey: [...queryKeys.document(id), 'text'],
    queryFn: () => documentsApi.text(id),
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === 'done' || status === 'failed' ? false : 3000;
    },
  });
}

export function useDocumentUsage() {
  return useQuery({ queryKey: queryKeys.documentUsage, queryFn: documentsApi.usage });
}

/** After an upload or a deletion: every list of documents, and the storage used. */
export function useDocumentsChanged() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: queryKeys.documents });
}

export function useDeleteDocument() {
  const changed = useDocumentsChanged();
  return useMutation({ mutationFn: documentsApi.remove, onSuccess: () => changed() });
}
