/** Insurance policies, current or past as the user sets them (SPEC.md §2, §4). */
import { choiceWithDefault, date, familyMember, text, textarea } from './fields';
import { recordCatalogue } from './catalogue';
import { defineRecord, objectSchema, standardMessages } from './definition';

export const INSURANCE_TYPES = [
  'Medical',
  'Dental',
  'Vision',
  'Long-term Disability',
  'Other',
] as const;
export const INSURANCE_STATUSES = ['current', 'past'] as const;
export type InsuranceStatus = (typeof INSURANCE_STATUSES)[number];

const fields = {
  insurance_type: choiceWithDefault('Insurance Type', INSURANCE_TYPES, 'Medical'),
  provider_name: text('Provider Name', { required: true }),
  policy_number: text('Policy Number'),
  group_number: text('Group Number'),
  coverage_details: textarea('Coverage Details'),
  deductible: text('Deductible'),
  copay: text('Copay'),
  effective_date: date('Effective Date'),
  expiry_date: date('Expiry Date'),
  status: choiceWithDefault('Status', INSURANCE_STATUSES, 'current', {
    labels: { current: 'Current', past: 'Past' },
  }),
  family_member_id: familyMember(),
};

/** The detail view shows a policy with no status as current (SPEC.md §4). */
export function insuranceStatusOf(status: string | null | undefined): InsuranceStatus {
  return status === 'past' ? 'past' : 'current';
}

const base = standardMessages('Insurance', 'insurance', {
  created: 'added',
  deletedDescription: 'removed',
});

export const insuranceDefinition = defineRecord({
  ...recordCatalogue.insurance,
  titleField: 'provider_name',
  pairs: [
    ['policy_number', 'group_number'],
    ['deductible', 'copay'],
    ['effective_date', 'expiry_date'],
  ],
  fields,
  schema: objectSchema(fields),
  memberLinked: true,
  order: [
    { column: 'status', direction: 'asc' },
    { column: 'insurance_type', direction: 'asc' },
  ],
  afterEdit: 'list',
  messages: {
    ...base,
    created: {
      title: 'Insurance added',
      description: 'The insurance policy has been added successfully.',
    },
    updated: {
      title: 'Insurance updated',
      description: 'The insurance policy has been updated successfully.',
    },
    deleted: {
      title: 'Insurance deleted',
      description: 'The insurance policy has been removed successfully.',
    },
  },
});
