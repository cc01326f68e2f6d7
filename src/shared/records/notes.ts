/** Notes: provider letters, referrals and the user's own notes (SPEC.md §2 Notes). */
import { choice, date, familyMember, text, textarea } from './fields';
import { recordCatalogue } from './catalogue';
import { defineRecord, objectSchema, standardMessages } from './definition';

export const NOTE_TYPES = ['Provider Letter', 'Referral', 'Personal Note', 'Other'] as const;

const fields = {
  title: text('Title', { required: true }),
  note_type: choice('Note Type', NOTE_TYPES),
  note_date: date('Note Date', { happened: true }),
  content: textarea('Content', { rows: 8 }),
  family_member_id: familyMember(),
};

export const noteDefinition = defineRecord({
  ...recordCatalogue.note,
  titleField: 'title',
  fields,
  schema: objectSchema(fields),
  memberLinked: true,
  order: [{ column: 'note_date', direction: 'desc', nulls: 'last' }],
  timeline: { dateField: 'note_date' },
  afterEdit: 'list',
  messages: standardMessages('Note', 'notes', { created: 'added', deletedDescription: 'removed' }),
});
