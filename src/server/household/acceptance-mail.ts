/**
 * A household grant's acceptance code, by mail (decision 0029): when mail is set up, the
 * grantee gets '{owner} shared {person}'s records with you', with the server's address and
 * the code, and the owner is not shown the code. The mail names only first names.
 */
import type { Kysely } from 'kysely';
import { firstName } from '../../shared/names';
import { ownedRows } from '../access/scope';
import type { DB } from '../db/schema';
import type { MailOutbox } from '../mail/mail-queue';
import type { AcceptanceCodeDelivery } from './household-repository';

/** The delivery for `createHouseholdRepository`; none (the owner is shown the code) without mail. */
export function mailAcceptanceCode(
  db: Kysely<DB>,
  outbox: MailOutbox | undefined,
): AcceptanceCodeDelivery | undefined {
  if (!outbox?.enabled) return undefined;
  return async ({ email, code, personName, ownerId }) => {
    const owner = await ownedRows(db, 'user', ownerId).select('name').executeTakeFirst();
    const queued = await outbox.enqueue({
      to: email,
      template: 'household-grant',
      params: { ownerName: firstName(owner?.name), personName: firstName(personName), code },
    });
    return queued ? 'sent' : 'shown';
  };
}
