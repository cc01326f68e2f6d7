/** Visits: appointments with a doctor, at a moment in time (SPEC.md §2 Visits). */
import { dateTime, familyMember, text, textarea } from './fields';
import { recordCatalogue } from './catalogue';
import { defineRecord, objectSchema, standardMessages } from './definition';

const fields = {
  visit_name: text('Visit Purpose', { required: true }),
  doctor_name: text('Doctor Name'),
  visit_date: dateTime('Visit Date', { required: true, sinceBirth: true }),
  frequency: text('Frequency'),
  office_name: text('Office/Hospital'),
  notes: textarea('Notes'),
  family_member_id: familyMember(),
};

export const visitDefinition = defineRecord({
  ...recordCatalogue.visit,
  titleField: 'visit_name',
  fields,
  schema: objectSchema(fields),
  memberLinked: true,
  order: [{ column: 'visit_date', direction: 'desc' }],
  views: {
    upcoming: {
      column: 'visit_date',
      comparison: '>=',
      against: 'now',
      includesEmpty: false,
      order: [{ column: 'visit_date', direction: 'asc' }],
    },
    past: {
      column: 'visit_date',
      comparison: '<',
      against: 'now',
      includesEmpty: false,
      order: [{ column: 'visit_date', direction: 'desc' }],
    },
  },
  timeline: { dateField: 'visit_date' },
  afterEdit: 'detail',
  messages: standardMessages('Visit', 'visits', {
    created: 'created',
    deletedDescription: 'deleted',
  }),
});
