/**
 * /api/persons/{personId}/summary.pdf: one person's health summary as a PDF download
 * (CONTRACT.md §4, 'Export as PDF').
 *
 *   ?today=YYYY-MM-DD   the reader's date: current medications and given shots split at it
 *   ?tz=Europe/Oslo     the reader's time zone, for visit times and the generated date (UTC)
 *   ?contacts=whole-family  the whole family's contacts too, beside the person's own
 *
 * The person is the user (their own id), one of their family members, or a person shared
 * with them on a grant that allows export; any other id is answered as a person that does
 * not exist. The PDF is laid out on a thread of its own (summary-pdf-thread.ts): the rest of
 * the server keeps answering meanwhile.
 */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { localToday } from '../../shared/dates';
import { ROWS_PER_SECTION, summaryQuerySchema } from '../../shared/person-summary';
import { WHOLE_FAMILY_CONTACTS } from '../../shared/constants';
import type { DB } from '../db/schema';
import type { HouseholdRepository } from '../household/household-repository';
import { exportablePerson } from '../access/persons';
import type { AppEnv } from '../http/env';
import { validate } from '../http/validation';
import { personFileName } from '../../shared/person-file-name';
import { buildPersonSummary } from './person-summary-source';
import { sharedSummaryPdfThread } from './summary-pdf-thread';
import { createAccountRepository } from '../account/account-repository';
import { languageInForce } from '../i18n/server-language';

export const SUMMARY_CONTENT_TYPE = 'application/pdf';

export function summaryRoutes(
  db: Kysely<DB>,
  household: Pick<HouseholdRepository, 'notePersonUse'>,
) {
  const accounts = createAccountRepository(db);
  return new Hono<AppEnv>().get(
    '/:personId/summary.pdf',
    validate('query', summaryQuerySchema),
    async (c) => {
      const access = await c.var.access();
      const { ownerId, person, shared } = await exportablePerson(
        db,
        access,
        c.req.param('personId'),
      );
      // A grantee's export is a read of the person, in the owner's security activity.
      await household.notePersonUse(access, person.id, 'read');
      const query = c.req.valid('query');
      const clock = { now: new Date().toISOString(), today: query.today ?? localToday() };
      // The whole family's contacts come only when the owner asks: never to a grantee.
      const wholeFamilyContacts = !shared && query.contacts === WHOLE_FAMILY_CONTACTS;
      const summary = await buildPersonSummary(db, ownerId, person, clock, {
        wholeFamilyContacts,
        // Ten full sections lay out in about 3 s and hold about 140 MB more meanwhile;
        // unbounded, 200,000 imported allergies would take the server's whole memory.
        rowsPerSection: ROWS_PER_SECTION,
      });
      // In the reader's account's language (else the one the request asks in): its words
      // are loaded by the thread that lays the summary out, not here.
      const language = await accounts.languageOf(c.var.user.id, languageInForce());
      const pdf = await sharedSummaryPdfThread().render(summary, {
        timeZone: query.tz ?? 'UTC',
        language,
      });
      return c.body(pdf, 200, {
        'Content-Type': SUMMARY_CONTENT_TYPE,
        'Content-Disposition': `attachment; filename="${personFileName('summary', person, clock.today, 'pdf')}"`,
      });
    },
  );
}
