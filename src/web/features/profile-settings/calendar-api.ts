/** The calendar feed's link. */
import type { CalendarLinkInput } from '../../../shared/calendar';
import { answer } from '../../lib/api-request';
import { product } from '../../lib/api';

export const calendarApi = {
  get: () => answer(product['calendar-link'].$get()),
  create: (input: CalendarLinkInput) => answer(product['calendar-link'].$post({ json: input })),
  revoke: () => answer(product['calendar-link'].$delete()),
};
