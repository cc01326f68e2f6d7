/**
 * The registry of record types: each type's definition, by its name in the catalogue (a
 * type the catalogue names without a definition here does not compile), listed in the
 * catalogue's order.
 */
import { allergyDefinition } from './allergies';
import { recordIdentities, type RecordType } from './catalogue';
import { conditionDefinition } from './conditions';
import { contactDefinition } from './contacts';
import type { RecordDefinition } from './definition';
import { insuranceDefinition } from './insurance';
import { labResultDefinition } from './lab-results';
import { medicationDefinition } from './medications';
import { noteDefinition } from './notes';
import { shotDefinition } from './shots';
import { symptomDefinition } from './symptoms';
import { visitDefinition } from './visits';
import { vitalDefinition } from './vitals';

export {
  allergyDefinition,
  conditionDefinition,
  contactDefinition,
  insuranceDefinition,
  labResultDefinition,
  medicationDefinition,
  noteDefinition,
  shotDefinition,
  symptomDefinition,
  visitDefinition,
  vitalDefinition,
};

export const definitionsByType = {
  visit: visitDefinition,
  medication: medicationDefinition,
  shot: shotDefinition,
  note: noteDefinition,
  condition: conditionDefinition,
  allergy: allergyDefinition,
  lab_result: labResultDefinition,
  insurance: insuranceDefinition,
  vital: vitalDefinition,
  symptom: symptomDefinition,
  contact: contactDefinition,
} as const satisfies Record<RecordType, RecordDefinition>;

/** Every definition, in the order the product lists the types. */
export const recordDefinitions: readonly RecordDefinition[] = recordIdentities.map(
  (identity) => definitionsByType[identity.type] as RecordDefinition,
);

/** The types that appear on the timeline, each with the date that places it there. */
export type TimelineDefinition = RecordDefinition & {
  timeline: NonNullable<RecordDefinition['timeline']>;
};

export const timelineDefinitions: TimelineDefinition[] = recordDefinitions.filter(
  (definition): definition is TimelineDefinition => definition.timeline !== undefined,
);
