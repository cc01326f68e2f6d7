/** The registry of record types, in the order the product lists them. */
import { contactDefinition } from './contacts';
import type { RecordDefinition, RecordType } from './definition';
import { conditionDefinition } from './conditions';
import { insuranceDefinition } from './insurance';
import { medicationDefinition } from './medications';
import { noteDefinition } from './notes';
import { shotDefinition } from './shots';
import { visitDefinition } from './visits';

export {
  contactDefinition,
  conditionDefinition,
  insuranceDefinition,
  medicationDefinition,
  noteDefinition,
  shotDefinition,
  visitDefinition,
};

export const recordDefinitions = [
  visitDefinition,
  medicationDefinition,
  shotDefinition,
  noteDefinition,
  conditionDefinition,
  insuranceDefinition,
  contactDefinition,
] as const;

export const definitionsByType: Record<RecordType, RecordDefinition> = Object.fromEntries(
  recordDefinitions.map((definition) => [definition.type, definition as RecordDefinition]),
) as Record<RecordType, RecordDefinition>;

/** The types that appear on the timeline, each with the date that places it there. */
export type TimelineDefinition = RecordDefinition & { timeline: { dateField: string } };

export const timelineDefinitions: TimelineDefinition[] = recordDefinitions
  .map((definition) => definition as RecordDefinition)
  .filter((definition): definition is TimelineDefinition => definition.timeline !== undefined);
