/**
 * Where a record's list is, for the screens that return to it (after a save, a delete, from
 * the detail's back arrow): the list's tab that holds the record (a past shot: 'Past'), and
 * the person in view when the list was filtered to one.
 */
import { localToday } from '../../../shared/dates';
import type { RecordDefinition } from '../../../shared/records/definition';
import { firstViewOf, viewOfRecord, type Present } from '../../../shared/records/list-views';
import { withPerson } from '../family-members/person-in-view';

/** The list's parameter naming the tab it opens on (the first tab needs none). */
export const TAB_PARAM = 'tab';

/** The person a stored record is about: its family member, else its owner (the user, or the
 * person who shared themself). */
export function personOfRecord(record: {
  family_member_id?: string | null;
  user_id: string;
}): string {
  return record.family_member_id || record.user_id;
}

export function listLocation(
  definition: Pick<RecordDefinition, 'path' | 'views'>,
  record: Readonly<Record<string, unknown>> | undefined,
  person: string | undefined,
  present: Present = { now: new Date().toISOString(), today: localToday() },
): string {
  const view = record ? viewOfRecord(definition, record, present) : undefined;
  const path =
    view && view !== firstViewOf(definition)
      ? `/${definition.path}?${new URLSearchParams({ [TAB_PARAM]: view })}`
      : `/${definition.path}`;
  return withPerson(path, person);
}
