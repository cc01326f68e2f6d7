/**
 * What names each record type, with no schema attached: its type, table, URL segment and
 * nouns. The routes, the timeline's links and the Add New dialog need nothing more, and
 * this costs the first screen nothing, where a definition brings its schema and zod with
 * it. Each type's definition takes its identity from here, so there is one source.
 */
import type { RecordTable, RecordType } from './definition';

export interface RecordIdentity {
  type: RecordType;
  table: RecordTable;
  /** The URL segment of the screens (`/visits`) and of the API (`/api/visits`). */
  path: string;
  /** 'Visit', as a title and in buttons. */
  noun: string;
  /** 'Visits', as the list's heading. */
  plural: string;
}

export const recordCatalogue = {
  visit: { type: 'visit', table: 'visits', path: 'visits', noun: 'Visit', plural: 'Visits' },
  medication: {
    type: 'medication',
    table: 'medications',
    path: 'medications',
    noun: 'Medication',
    plural: 'Medications',
  },
  shot: { type: 'shot', table: 'shots', path: 'shots', noun: 'Shot', plural: 'Shots' },
  note: { type: 'note', table: 'notes', path: 'notes', noun: 'Note', plural: 'Notes' },
  condition: {
    type: 'condition',
    table: 'conditions',
    path: 'history',
    noun: 'Condition',
    plural: 'Health History',
  },
  insurance: {
    type: 'insurance',
    table: 'insurance',
    path: 'insurance',
    noun: 'Insurance',
    plural: 'Insurance',
  },
  contact: {
    type: 'contact',
    table: 'contacts',
    path: 'contacts',
    noun: 'Contact',
    plural: 'Contacts',
  },
} as const satisfies Record<RecordType, RecordIdentity>;

/** Every record type, in the order the product lists them. */
export const recordIdentities: readonly RecordIdentity[] = [
  recordCatalogue.visit,
  recordCatalogue.medication,
  recordCatalogue.shot,
  recordCatalogue.note,
  recordCatalogue.condition,
  recordCatalogue.insurance,
  recordCatalogue.contact,
];

/** Every record table. */
export const recordTables: readonly RecordTable[] = recordIdentities.map(
  (identity) => identity.table,
);
