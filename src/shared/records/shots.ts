/** Shots and vaccinations (SPEC.md §2 Shots). */
import { date, familyMember, text, textarea } from './fields';
import { recordCatalogue } from './catalogue';
import { defineRecord, objectSchema, standardMessages } from './definition';

const fields = {
  shot_name: text('Shot Name', { required: true }),
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
