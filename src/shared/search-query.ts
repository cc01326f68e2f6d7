/**
 * The query string of /api/search, apart from shared/search.ts so that the header's search
 * box (on the first screen) does not bring zod with it.
 */
import { z } from 'zod';
import { memberFilter, pageNumber } from './records/list-query';
import { MAX_QUERY_LENGTH, SEARCH_PAGE_LIMIT } from './search';

/** The query string of /api/search: the words, whose records, how many. */
export const searchQuerySchema = z.object({
  q: z
    .string({ error: 'q is required' })
    .max(MAX_QUERY_LENGTH, { error: `q must be at most ${MAX_QUERY_LENGTH} characters` }),
  member: memberFilter,
  limit: pageNumber('limit', 1, SEARCH_PAGE_LIMIT, SEARCH_PAGE_LIMIT),
});
