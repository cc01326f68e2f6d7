/**
 * Health history: the user's own conditions and the family's (SPEC.md §2, §4). A family
 * history entry names a relation, relative to the person it is recorded for: the account
 * holder (SPEC.md's rule, and the form's default) or a family member (issue 33.3). The
 * schema enforces the relation for the form and the server alike.
 */
import { key, tr } from '../i18n/translate';
import { choice, date, familyMember, flag, text, textarea } from './fields';
import { recordCatalogue } from './catalogue';
import { defineRecord, objectSchema, standardMessages } from './definition';

export const CONDITION_STATUSES = ['Active', 'Resolved', 'Chronic', 'Under Treatment'] as const;

const fields = {
  condition_name: text('Condition Name', { required: true }),
  diagnosis_date: date('Diagnosis Date', { happened: true, sinceBirth: true }),
  status: choice('Status', CONDITION_STATUSES),
  is_family_history: flag('Family History'),
  relation: text('Relation'),
  notes: textarea('Notes'),
  family_member_id: familyMember(),
};

export const RELATION_REQUIRED_MESSAGE = key('Relation is required');

export const conditionDefinition = defineRecord({
  ...recordCatalogue.condition,
  titleField: 'condition_name',
  fields,
  schema: objectSchema(fields)
    .refine((values) => !values.is_family_history || values.relation !== null, {
      error: () => tr(RELATION_REQUIRED_MESSAGE),
      path: ['relation'],
    })
    // A family history entry is about a relative of the person it is recorded for (the
    // account holder, as SPEC.md has it, or a family member): the relation is to them.
    .transform((values) => (values.is_family_history ? values : { ...values, relation: null })),
  memberLinked: true,
  order: [{ column: 'diagnosis_date', direction: 'desc', nulls: 'last' }],
  timeline: { dateField: 'diagnosis_date' },
  afterEdit: 'list',
  messages: standardMessages('Condition', 'health history', {
    created: 'added',
    deletedDescription: 'removed',
  }),
});
