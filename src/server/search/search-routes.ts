/**
 * /api/search?q=…&member=…&limit=…: what the header's box and the /search page show
 * (CONTRACT.md §5 'Search'). A read of a shared person's records is noted in the owner's
 * security activity, as a list of them is.
 */
import { Hono } from 'hono';
import { searchTerms } from '../../shared/search';
import { searchQuerySchema } from '../../shared/search-query';
import { sharesInScope } from '../access/scope';
import type { HouseholdRepository } from '../household/household-repository';
import type { AppEnv } from '../http/env';
import { validate } from '../http/validation';
import type { SearchRepository } from './search-repository';

export function searchRoutes(
  search: SearchRepository,
  household: Pick<HouseholdRepository, 'noteUse'>,
) {
  return new Hono<AppEnv>().get('/', validate('query', searchQuerySchema), async (c) => {
    const query = c.req.valid('query');
    const access = await c.var.access();
    const terms = searchTerms(query.q);
    const answer = await search.search(access, query.q, terms, {
      memberId: query.member,
      limit: query.limit,
    });
    const shared = sharesInScope(access, { memberLinked: true, personId: query.member });
    if (shared.length && terms.length) await household.noteUse(access, shared, 'read');
    return c.json(answer);
  });
}
