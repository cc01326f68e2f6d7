/**
 * GET /api/documents/{id}/text: a document's text as its page shows it ('Reading text…'
 * until it is read, then the text to read and copy): `{ status, text?, pagesRead?, pages? }`
 * (the last two when the text is from the first pages only). The document is
 * found through its search entry, which carries its owner and person, so the access
 * module's scope decides who may read it (its owner, and a person's grantees).
 */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import {
  membersOfScope,
  rowsInScope,
  scopeOf,
  scopeShape,
  scopeValues,
  shareOfRow,
} from '../access/scope';
import { prepareQuery, preparedShapes } from '../db/prepared-query';
import type { DB, DocumentTextStatus } from '../db/schema';
import type { HouseholdRepository } from '../household/household-repository';
import type { AppEnv } from '../http/env';
import { notFound } from '../http/errors';
import { isId } from '../ids';
import type { DocumentTextAnswer } from '../../shared/documents';
import { LOCKED_TEXT_ERROR } from '../documents/text/document-text';
import { documentSearchSource } from './search-sources';
import { key } from '../../shared/i18n/translate';

export const DOCUMENT_NOT_FOUND = key('Document not found');

interface TextRow {
  user_id: string;
  family_member_id: string | null;
  status: DocumentTextStatus | null;
  text: string | null;
  pages: number | null;
  pages_read: number | null;
  last_error: string | null;
}

export function documentTextRoutes(
  db: Kysely<DB>,
  household: Pick<HouseholdRepository, 'noteUse'>,
) {
  const queries = preparedShapes<Record<string, unknown>, TextRow>();
  return new Hono<AppEnv>().get('/:id/text', async (c) => {
    const id = c.req.param('id');
    if (!isId(id)) throw notFound(DOCUMENT_NOT_FOUND);
    const access = await c.var.access();
    const scope = scopeOf(access, { memberLinked: true });
    const query = queries(scopeShape(scope), () =>
      prepareQuery(db, (v: Record<string, unknown>) =>
        rowsInScope(db, 'search_entries', scope, v, 'e')
          .leftJoin('document_texts as t', (join) =>
            join.onRef('t.document_id', '=', 'e.record_id').on(membersOfScope(scope, v, 't')),
          )
          .select([
            'e.user_id',
            'e.family_member_id',
            't.status',
            't.text',
            't.pages',
            't.pages_read',
            't.last_error',
          ])
          .where('e.record_table', '=', documentSearchSource.table)
          .where('e.record_id', '=', v.id as string),
      ),
    );
    const [row] = await query({ ...scopeValues(scope), id });
    if (!row) throw notFound(DOCUMENT_NOT_FOUND);
    const share = row.user_id === access.userId ? undefined : shareOfRow(access, row);
    if (share) await household.noteUse(access, [share], 'read');
    const status = row.status ?? 'pending';
    const partly =
      row.pages_read !== null && row.pages !== null
        ? { pagesRead: row.pages_read, pages: row.pages }
        : {};
    const locked = status === 'failed' && row.last_error === LOCKED_TEXT_ERROR;
    const answer: DocumentTextAnswer =
      status === 'done'
        ? { status, text: row.text ?? '', ...partly }
        : { status, ...(locked && { reason: 'locked' as const }) };
    return c.json(answer);
  });
}
