/**
 * Symptoms (CONTRACT §6): how someone felt, from a moment on (and until one, when it ended),
 * with a severity from 1 (barely there) to 10 (the worst it could be), as the person says it.
 */
import { key, tr } from '../i18n/translate';
import { amount, dateTime, familyMember, text, textarea } from './fields';
import { recordCatalogue } from './catalogue';
import { defineRecord, objectSchema, standardMessages } from './definition';

export const SEVERITY_MIN = 1;
export const SEVERITY_MAX = 10;

const fields = {
  symptom: text('Symptom', { required: true }),
  severity: amount('Severity', { min: SEVERITY_MIN, max: SEVERITY_MAX, whole: true }),
  started_at: dateTime('Started At', {
    required: true,
    happened: true,
    sinceBirth: true,
    startsNow: true,
  }),
  ended_at: dateTime('Ended At', { happened: true, sinceBirth: true }),
  notes: textarea('Notes'),
  family_member_id: familyMember(),
};

export const ENDED_BEFORE_STARTED = key('Ended At cannot be before Started At');

export const symptomDefinition = defineRecord({
  ...recordCatalogue.symptom,
  titleField: 'symptom',
  pairs: [['started_at', 'ended_at']],
  fields,
  schema: objectSchema(fields).refine(
    // Both are UTC ISO timestamps of the same form here, so they compare as text.
    (values) => !values.ended_at || !values.started_at || values.ended_at >= values.started_at,
    { error: () => tr(ENDED_BEFORE_STARTED), path: ['ended_at'] },
  ),
  memberLinked: true,
  order: [{ column: 'started_at', direction: 'desc' }],
  timeline: { dateField: 'started_at' },
  afterEdit: 'detail',
  messages: standardMessages('Symptom', 'symptoms', {
    created: 'added',
    deletedDescription: 'removed',
  }),
});
