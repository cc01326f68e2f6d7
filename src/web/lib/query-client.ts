import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../../shared/api-error';

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: true,
        // A refusal will not change by asking again; a dropped connection might.
        retry: (count, error) =>
          !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
      },
      mutations: { retry: false },
    },
  });
}

export const queryKeys = {
  session: ['session'] as const,
  profile: ['profile'] as const,
  familyMembers: ['family-members'] as const,
  household: ['household'] as const,
  timeline: (member: string | undefined) => ['timeline', member ?? 'all'] as const,
  timelineAll: ['timeline'] as const,
  vaccineDoses: (today: string) => ['timeline', 'vaccine-doses', today] as const,
  search: (q: string, member: string | undefined, limit: number) =>
    ['search', q, member ?? 'all', limit] as const,
  searchAll: ['search'] as const,
  records: (type: string) => ['records', type] as const,
  recordList: (type: string, params: object) => ['records', type, 'list', params] as const,
  record: (type: string, id: string) => ['records', type, 'one', id] as const,
  documents: ['documents'] as const,
  documentList: (params: object) => ['documents', 'list', params] as const,
  document: (id: string) => ['documents', 'one', id] as const,
  documentUsage: ['documents', 'usage'] as const,
  imports: ['imports'] as const,
};
