/** Share links: made, listed, revoked, and their access log. */
import type { EMERGENCY_CARD_SCOPE } from '../../../shared/emergency-card';
import type { CreateShareLinkInput } from '../../../shared/share-links';
import { WHOLE_FAMILY_CONTACTS } from '../../../shared/constants';
import { localToday } from '../../../shared/date-values';
import { answer, queryString, send } from '../../lib/api-request';
import { product } from '../../lib/api';

export const shareLinksApi = {
  list: () => answer(product['share-links'].$get()),
  create: (input: CreateShareLinkInput) => answer(product['share-links'].$post({ json: input })),
  accesses: (id: string) => answer(product['share-links'][':id'].accesses.$get({ param: { id } })),
  revoke: (id: string) => answer(product['share-links'][':id'].$delete({ param: { id } })),
  /** A person's bundle of the chosen types (and overdue vaccine doses), as the owner's browser encrypts it. */
  bundle: async (
    personId: string,
    types: readonly string[],
    options: {
      wholeFamilyContacts?: boolean;
      documentIds?: readonly string[];
      /** Only what the person's emergency card holds, whatever `types` says. */
      scope?: typeof EMERGENCY_CARD_SCOPE;
    } = {},
  ): Promise<string> => {
    const response = await send(
      `/api/fhir/Patient/${encodeURIComponent(personId)}/$everything${queryString({
        today: localToday(),
        types: types.join(','),
        // The documents the owner chose, each with its file (and a HEIC photo's JPEG).
        documents: options.documentIds?.join(','),
        contacts: options.wholeFamilyContacts ? WHOLE_FAMILY_CONTACTS : undefined,
        // The doses the owner's schedule has overdue, for the viewer's 'Vaccine Doses Overdue'.
        vaccines: options.scope ? undefined : 'overdue',
        scope: options.scope,
      })}`,
    );
    return response.text();
  },
};
