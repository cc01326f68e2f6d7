/**
 * Documents: lists, one document, the storage used, editing, attaching and deleting one,
 * and the records a person's document may be attached to.
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { StoredDocument } from '../../../shared/documents';
import type { DocumentEdit, DocumentRecord } from '../../../shared/document-upload';
import { documentsApi, type DocumentListQuery } from './documents-api';
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

/** Every document of a person (the holder: their own id), all pages of them, newest first. */
export function usePersonDocuments(personId: string, enabled = true) {
  return useQuery({
    queryKey: queryKeys.documentList({ member: personId, all: true }),
    queryFn: async () => {
      const documents: StoredDocument[] = [];
      for (;;) {
        const page = await documentsApi.list({
          member: personId,
          limit: 100,
          offset: documents.length,
        });
        documents.push(...page.documents);
        if (page.documents.length === 0 || documents.length >= page.total) return documents;
      }
    },
    enabled: enabled && personId !== '',
  });
}

/** The records a document of this person may be attached to, by name and date. */
export function useAttachableRecords(personId: string, enabled = true) {
  return useQuery({
    queryKey: [...queryKeys.documents, 'records', personId],
    queryFn: () => documentsApi.attachableRecords(personId),
    enabled: enabled && personId !== '',
  });
}

export function useUpdateDocument(id: string) {
  const changed = useDocumentsChanged();
  return useMutation({
    mutationFn: (edit: DocumentEdit) => documentsApi.update(id, edit),
    onSuccess: () => changed(),
  });
}

export function useAttachDocument() {
  const changed = useDocumentsChanged();
  return useMutation({
    mutationFn: ({ id, record }: { id: string; record: DocumentRecord }) =>
      documentsApi.attach(id, record),
    onSuccess: () => changed(),
  });
}

export function useDeleteDocument() {
  const changed = useDocumentsChanged();
  return useMutation({ mutationFn: documentsApi.remove, onSuccess: () => changed() });
}
