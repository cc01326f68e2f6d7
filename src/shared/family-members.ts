/** Family members: the people a user keeps records for (SPEC.md §2 Family Profiles). */
import { key } from './i18n/translate';
import type { z } from 'zod';
import { DEFAULT_MEMBER_COLOR, MEMBER_COLORS } from './constants';
import { choice, choiceWithDefault, date, text } from './records/fields';
import { objectSchema } from './records/definition';

export const SEXES = ['female', 'male'] as const;
export type Sex = (typeof SEXES)[number];

/** A stored sex as the type knows it; anything else (none, or unknown) is null. */
export const toSex = (value: string | null | undefined): Sex | null =>
  (SEXES as readonly (string | null | undefined)[]).includes(value) ? (value as Sex) : null;

export const familyMemberFields = {
  name: text(key('Name'), { required: true }),
  date_of_birth: date(key('Date of Birth'), { happened: true }),
  // CONTRACT §5: used by the vaccine schedule (and growth charts); none is 'Not recorded'.
  sex: choice(key('Sex'), SEXES, {
    labels: { female: key('Female'), male: key('Male') },
    emptyLabel: key('Not recorded'),
  }),
  color: choiceWithDefault(key('Color'), MEMBER_COLORS, DEFAULT_MEMBER_COLOR),
};

export const familyMemberSchema = objectSchema(familyMemberFields);
export type FamilyMemberInput = z.input<typeof familyMemberSchema>;
export type FamilyMemberValues = z.output<typeof familyMemberSchema>;

export interface FamilyMember extends FamilyMemberValues {
  id: string;
  user_id: string;
  created_at: string;
}

/** What deleting a member removes, as the confirm dialog lists it. */
export const MEMBER_DELETION_LIST = [
  key('Medical history'),
  key('Medications'),
  key('Appointments and visits'),
  key('Notes and documents'),
  key('Insurance'),
] as const;

/** Members by name, as the form pickers list them. */
export function sortMembersByName<M extends { name: string }>(members: readonly M[]): M[] {
  return [...members].sort((a, b) =>
    a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }),
  );
}
