/** The query string of a record list: which tab, whose records, which page. */
import { z } from 'zod';
import { MAX_PAGE_SIZE, PAGE_SIZE, WHOLE_FAMILY_CONTACTS } from '../constants';
import { isCalendarDate } from '../dates';
import type { RecordDefinition } from './definition';
import { isPersonId } from './fields';

export const memberFilter = z
  .string()
  .optional()
  .transform((value) => value || undefined)
  .refine((value) => value === undefined || isPersonId(value), {
    error: 'member must be a family member id',
  });

export const pageNumber = (name: string, min: number, max: number, fallback: number) =>
  z
    .string()
    .optional()
    .transform((value) => (value === undefined || value === '' ? fallback : Number(value)))
    .refine((value) => Number.isInteger(value) && value >= min && value <= max, {
      error: `${name} must be a whole number from ${min} to ${max}`,
    });

/** The browser's calendar date, for what splits at today (current medications, upcoming shots). */
export const todayParam = z
  .string()
  .optional()
  .refine((value) => value === undefined || isCalendarDate(value), {
    error: 'today must be a date (YYYY-MM-DD)',
  });

/**
 * `?contacts=whole-family`: a person's export also carries the whole family's contacts
 * (tied to no one); without it, only the contacts tied to that person. A grantee's export
 * never carries them, whatever it asks.
 */
export const contactsParam = z
  .literal(WHOLE_FAMILY_CONTACTS, { error: `contacts must be '${WHOLE_FAMILY_CONTACTS}'` })
  .optional();

export function listQuerySchema(definition: RecordDefinition) {
  const views = Object.keys(definition.views ?? {});
  return z.object({
    view: z
      .string()
      .optional()
      .refine((value) => value === undefined || views.includes(value), {
        error: views.length
          ? `view must be one of: ${views.join(', ')}`
          : `${definition.plural} have no views`,
      }),
    member: memberFilter,
    today: todayParam,
    limit: pageNumber('limit', 1, MAX_PAGE_SIZE, PAGE_SIZE),
    offset: pageNumber('offset', 0, 1_000_000, 0),
  });
}

export const timelineQuerySchema = z.object({
  member: memberFilter,
  cursor: z.string().max(200).optional(),
  limit: pageNumber('limit', 1, MAX_PAGE_SIZE, PAGE_SIZE),
});
