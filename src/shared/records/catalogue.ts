/**
 * What names each record type, with no schema attached: its type, table, URL segment,
 * nouns, and where it is offered (the Add New dialog, the Health Records menu). The routes,
 * the timeline's links, the menu and the dialog need nothing more, and this costs the first
 * screen nothing, where a definition brings its schema and zod with it. Each type's
 * definition takes its identity from here, and the record type and table names are read
 * off this list: a new type is one entry here, one definition, and its screens.
 */
export interface RecordIdentity<T extends string = string, Table extends string = string> {
  type: T;
  table: Table;
  /** The URL segment of the screens (`/visits`) and of the API (`/api/visits`). */
  path: string;
  /** 'Visit', as a title and in buttons. */
  noun: string;
  /** 'Visits', as the list's heading. */
  plural: string;
  /** Its card on the Health Records menu (/list), when it has one. */
  menu?: { title: string; description: string };
  /** Whether the Add New dialog offers it ('New {noun}'). */
  addNew: boolean;
}

export const recordCatalogue = {
  visit: {
    type: 'visit',
    table: 'visits',
    path: 'visits',
    noun: 'Visit',
    plural: 'Visits',
    menu: { title: 'Visits', description: 'Appointments, past and upcoming' },
    addNew: true,
  },
  medication: {
    type: 'medication',
    table: 'medications',
    path: 'medications',
    noun: 'Medication',
    plural: 'Medications',
    menu: { title: 'Medications', description: 'What you take, and when' },
    addNew: true,
  },
  shot: {
    type: 'shot',
    table: 'shots',
    path: 'shots',
    noun: 'Shot',
    plural: 'Shots',
    menu: { title: 'Shots', description: 'Vaccinations and boosters' },
    addNew: true,
  },
  note: {
    type: 'note',
    table: 'notes',
    path: 'notes',
    noun: 'Note',
    plural: 'Notes',
    menu: { title: 'Notes', description: 'Letters, referrals and your own notes' },
    addNew: true,
  },
  condition: {
    type: 'condition',
    table: 'conditions',
    path: 'history',
    noun: 'Condition',
    plural: 'Health History',
    menu: { title: 'Health History', description: 'Conditions, yours and the family’s' },
    addNew: true,
  },
  allergy: {
    type: 'allergy',
    table: 'allergies',
    path: 'allergies',
    noun: 'Allergy',
    plural: 'Allergies',
    menu: { title: 'Allergies', description: 'What to avoid, and how bad a reaction gets' },
    addNew: true,
  },
  lab_result: {
    type: 'lab_result',
    table: 'lab_results',
    path: 'labs',
    noun: 'Lab Result',
    plural: 'Lab Results',
    menu: { title: 'Lab Results', description: 'Tests, their ranges and their trends' },
    addNew: true,
  },
  insurance: {
    type: 'insurance',
    table: 'insurance',
    path: 'insurance',
    noun: 'Insurance',
    plural: 'Insurance',
    menu: { title: 'Insurance', description: 'Policies, current and past' },
    addNew: true,
  },
  vital: {
    type: 'vital',
    table: 'vitals',
    path: 'vitals',
    noun: 'Vitals',
    plural: 'Vitals',
    menu: { title: 'Vitals', description: 'Weight, height, blood pressure and more, over time' },
    addNew: true,
  },
  symptom: {
    type: 'symptom',
    table: 'symptoms',
    path: 'symptoms',
    noun: 'Symptom',
    plural: 'Symptoms',
    menu: { title: 'Symptoms', description: 'How someone felt, how bad and for how long' },
    addNew: true,
  },
  contact: {
    type: 'contact',
    table: 'contacts',
    path: 'contacts',
    noun: 'Contact',
    plural: 'Contacts',
    // A screen of the bottom navigation, and added from its own list.
    addNew: false,
  },
} as const satisfies { [T in string]: RecordIdentity<T> };

/** A record type's name: `visit`, `medication`, … */
export type RecordType = keyof typeof recordCatalogue;
/** A record table's name: `visits`, `medications`, … */
export type RecordTable = (typeof recordCatalogue)[RecordType]['table'];

/** Every record type, in the order the product lists them. */
export const recordIdentities: readonly RecordIdentity<RecordType, RecordTable>[] =
  Object.values(recordCatalogue);

/** Every record table. */
export const recordTables: readonly RecordTable[] = recordIdentities.map(
  (identity) => identity.table,
);
