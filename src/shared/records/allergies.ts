/**
 * Allergies: what a person must not be given or exposed to, how they react, and how badly
 * (CONTRACT.md §4). The first thing a doctor asks, and the one section an International
 * Patient Summary cannot leave out.
 */
import { choice, choiceWithDefault, date, familyMember, text, textarea } from './fields';
import { recordCatalogue } from './catalogue';
import { defineRecord, objectSchema, standardMessages } from './definition';

export const ALLERGY_SEVERITIES = ['Mild', 'Moderate', 'Severe'] as const;
export const ALLERGY_CATEGORIES = ['Food', 'Medication', 'Environment', 'Other'] as const;
export const ALLERGY_STATUSES = ['Active', 'Inactive', 'Resolved'] as const;

type AllergySeverity = (typeof ALLERGY_SEVERITIES)[number];
/** Severe 0, Moderate 1, Mild 2; unknown 3. */
const severityRank = (severity: AllergySeverity | null) =>
  severity === null
    ? ALLERGY_SEVERITIES.length
    : ALLERGY_SEVERITIES.length - 1 - ALLERGY_SEVERITIES.indexOf(severity);

/** Orders allergies the most severe first, those of unknown severity last. */
export const mostSevereFirst = (
  a: { severity: AllergySeverity | null },
  b: { severity: AllergySeverity | null },
) => severityRank(a.severity) - severityRank(b.severity);

const fields = {
  substance: text('Substance', { required: true }),
  reaction: text('Reaction', { max: 500 }),
  severity: choice('Severity', ALLERGY_SEVERITIES),
  category: choice('Category', ALLERGY_CATEGORIES),
  status: choiceWithDefault('Status', ALLERGY_STATUSES, 'Active'),
  noted_date: date('Noted Date', { happened: true, sinceBirth: true }),
  notes: textarea('Notes'),
  family_member_id: familyMember(),
};

export const allergyDefinition = defineRecord({
  ...recordCatalogue.allergy,
  titleField: 'substance',
  fields,
  schema: objectSchema(fields),
  memberLinked: true,
  // Active ones first (the ones that matter at a doctor's desk), then by name.
  order: [
    { column: 'status', direction: 'asc' },
    { column: 'substance', direction: 'asc', caseInsensitive: true },
  ],
  timeline: { dateField: 'noted_date' },
  afterEdit: 'detail',
  messages: {
    ...standardMessages('Allergy', 'allergies', {
      created: 'added',
      deletedDescription: 'removed',
    }),
    notFound: 'Allergy not found',
  },
});
