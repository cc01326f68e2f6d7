/** Shots and vaccinations (SPEC.md §2 Shots). */
import { codeChoice, date, familyMember, text, textarea } from './fields';
import { tr } from '../i18n/translate';
import { cvxNames, vaccineChoices } from '../vaccines/vaccines';
import { recordCatalogue } from './catalogue';
import { defineRecord, objectSchema, standardMessages } from './definition';

const fields = {
  shot_name: text('Shot Name', { required: true }),
  // The vaccine as a CVX code (the CDC's code set), for the vaccine schedule; 'Other' is none.
  vaccine_code: codeChoice(
    'Vaccine',
    vaccineChoices.map((choice) => ({ value: choice.cvx, label: choice.name })),
    cvxNames,
    {
      emptyLabel: 'Other',
      notOne: (label) =>
        tr('{label} must be a vaccine of the list (a CVX code)', { label: tr(label) }),
    },
  ),
  date_administered: date('Date Administered', { sinceBirth: true }),
  location: text('Location'),
  notes: textarea('Notes'),
  family_member_id: familyMember(),
};

/**
 * Whether a shot has been given, on `today` (a calendar date, `YYYY-MM-DD`: the reader's, as
 * each place knows it): a shot dated today or earlier has been (CONTRACT.md §6 'Shots dated
 * today'); one dated after today is still to come. A shot kept without a date was given on
 * a day nobody wrote down. Every place that tells a given shot from one to come asks this:
 * the Shots list (its views below are this rule in SQL), the vaccine schedule, FHIR and the
 * IPS summary, the PDF, share links and the calendar feed.
 */
export function isShotGiven(date: string | null, today: string): boolean {
  return date === null || date <= today;
}

export const shotDefinition = defineRecord({
  ...recordCatalogue.shot,
  titleField: 'shot_name',
  fields,
  schema: objectSchema(fields),
  memberLinked: true,
  order: [{ column: 'date_administered', direction: 'desc', nulls: 'last' }],
  // isShotGiven in SQL: dated after today is upcoming, today or earlier past; undated in
  // neither list (shots-given.test.ts holds every place to the one rule).
  views: {
    upcoming: {
      column: 'date_administered',
      comparison: '>',
      against: 'today',
      includesEmpty: false,
      order: [{ column: 'date_administered', direction: 'asc' }],
    },
    past: {
      column: 'date_administered',
      comparison: '<=',
      against: 'today',
      includesEmpty: false,
      order: [{ column: 'date_administered', direction: 'desc' }],
    },
  },
  timeline: { dateField: 'date_administered' },
  afterEdit: 'detail',
  messages: standardMessages('Shot', 'shots', {
    created: 'created',
    deletedDescription: 'deleted',
  }),
});
