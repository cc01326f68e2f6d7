/** Shots and vaccinations (SPEC.md §2 Shots). */
import { codeChoice, date, familyMember, text, textarea } from './fields';
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
    { emptyLabel: 'Other', what: 'a vaccine of the list (a CVX code)' },
  ),
  date_administered: date('Date Administered', { sinceBirth: true }),
  location: text('Location'),
  notes: textarea('Notes'),
  family_member_id: familyMember(),
};

export const shotDefinition = defineRecord({
  ...recordCatalogue.shot,
  titleField: 'shot_name',
  fields,
  schema: objectSchema(fields),
  memberLinked: true,
  order: [{ column: 'date_administered', direction: 'desc', nulls: 'last' }],
  views: {
    upcoming: {
      column: 'date_administered',
      comparison: '>=',
      against: 'today',
      includesEmpty: false,
      order: [{ column: 'date_administered', direction: 'asc' }],
    },
    past: {
      column: 'date_administered',
      comparison: '<',
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
