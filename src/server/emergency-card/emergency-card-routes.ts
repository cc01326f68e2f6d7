/**
 * GET /api/persons/{personId}/emergency-card?today=YYYY-MM-DD: one person's emergency card
 * (src/shared/emergency-card.ts), picked from their summary as of the reader's date.
 *
 * The person is the user, one of their members, or a person shared with them (a Viewer reads
 * it too, as the card is a read of the person); any other id is answered as a person that
 * does not exist. The whole family's contacts (the family doctor) are on the owner's cards,
 * never on a grantee's.
 */
import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import { localToday } from '../../shared/dates';
import {
  emergencyCardOf,
  emergencyCardQuerySchema,
  emergencyCardRows,
  type EmergencyCard,
} from '../../shared/emergency-card';
import { ROWS_PER_SECTION } from '../../shared/person-summary';
import type { DB } from '../db/schema';
import { readablePerson } from '../access/persons';
import type { HouseholdRepository } from '../household/household-repository';
import type { AppEnv } from '../http/env';
import { validate } from '../http/validation';
import { buildPersonSummary } from '../summary/person-summary-source';
import { createAccountRepository } from '../account/account-repository';
import { inLanguage, languageInForce } from '../i18n/server-language';

export function emergencyCardRoutes(
  db: Kysely<DB>,
  household: Pick<HouseholdRepository, 'noteUse'>,
) {
  const accounts = createAccountRepository(db);
  return new Hono<AppEnv>().get(
    '/:personId/emergency-card',
    validate('query', emergencyCardQuerySchema),
    async (c) => {
      const access = await c.var.access();
      const personId = c.req.param('personId');
      const { ownerId, person, share } = await readablePerson(db, access, personId);
      const today = c.req.valid('query').today ?? localToday();
      const summary = await buildPersonSummary(
        db,
        ownerId,
        person,
        { now: new Date().toISOString(), today },
        // Only the card's rows, and at most so many of each kind: the card says how many more.
        {
          wholeFamilyContacts: !share,
          rowsPerSection: ROWS_PER_SECTION,
          only: emergencyCardRows(today),
        },
      );
      if (share) await household.noteUse(access, [share], 'read');
      // Never kept by a shared cache; the app's service worker keeps the last one on the device.
      c.header('Cache-Control', 'private, no-store');
      // Its words (what the shared card makes) in the reader's account's language.
      const language = await accounts.languageOf(access.userId, languageInForce());
      return c.json<EmergencyCard>(
        await inLanguage(language, () => emergencyCardOf(summary, today)),
      );
    },
  );
}
