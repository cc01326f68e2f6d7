/**
 * A share link lives no longer than its maker's right to make it: its person is the maker's
 * own, or shared with them on a grant that is still there, has not passed its 'Access Ends'
 * and still allows sharing and export (the rule that let them make it, `findExportablePerson`).
 * It is asked at each request for the link's manifest or file, and when a list shows the
 * link, so no request is served by a link whose maker lost the person, however that
 * happened (a date passing changes no row). Such a link is revoked then, as its owner's
 * revoking would, and the maker's security activity says why.
 */
import type { Kysely } from 'kysely';
import type { ShareLinkSummary } from '../../shared/share-links';
import { createAccessReader } from '../access/scope';
import { recordAuditEvent } from '../audit/audit-log';
import type { DB } from '../db/schema';
import { nowTimestamp } from '../ids';
import { findExportablePerson } from '../access/persons';
import { createShareLinkStore, type ListedShareLink } from './share-link-store';

/** What the maker's security activity says of a link revoked because their access ended. */
export const ACCESS_ENDED_DETAIL = 'access to the person ended';

/** A link, by its maker (its row's owner) and its person. */
export interface MadeLink {
  id: string;
  user_id: string;
  person_id: string;
  label: string;
}

export function createMakerAccess(db: Kysely<DB>) {
  const accessOf = createAccessReader(db);

  /** Whether the maker may make a link of the person today. */
  async function mayShare(makerId: string, personId: string): Promise<boolean> {
    return (await findExportablePerson(db, await accessOf(makerId), personId)) !== undefined;
  }

  /**
   * Whether the link may still be opened. When its maker lost its person it may not, and is
   * revoked now (at `at`), once however many requests find it so at the same time.
   */
  async function holds(link: MadeLink, at = nowTimestamp()): Promise<boolean> {
    if (await mayShare(link.user_id, link.person_id)) return true;
    await db.transaction().execute(async (trx) => {
      if (!(await createShareLinkStore(trx).revoke(link.user_id, link.id, at))) return;
      await recordAuditEvent(trx, {
        event: 'share_link_revoked',
        userId: link.user_id,
        detail: `${link.label} · ${ACCESS_ENDED_DETAIL}`,
      });
    });
    return false;
  }

  /** A list's links as they stand now: those whose maker lost their person, revoked. */
  async function settle(listed: readonly ListedShareLink[]): Promise<ShareLinkSummary[]> {
    const summaries: ShareLinkSummary[] = [];
    for (const { summary, makerId, ownPerson } of listed) {
      const at = nowTimestamp();
      const lost =
        summary.revoked_at === null &&
        !ownPerson &&
        !(await holds(
          { id: summary.id, user_id: makerId, person_id: summary.person_id, label: summary.label },
          at,
        ));
      summaries.push(lost ? { ...summary, revoked_at: at } : summary);
    }
    return summaries;
  }

  return { holds, settle };
}

export type MakerAccess = ReturnType<typeof createMakerAccess>;
