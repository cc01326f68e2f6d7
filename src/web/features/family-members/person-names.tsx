/**
 * The persons a record is for, by name ('Maria Garcia (you)', 'Leo'), or 'Whole family'
 * when it names no one: on contact cards and detail pages.
 */
import { useTranslation } from 'react-i18next';
import { WHOLE_FAMILY } from '../../../shared/records/fields';
import { usePersons } from './person-select';

/** Names the persons of a list of ids, in the select's order. */
export function usePersonNames(): (personIds: readonly string[] | undefined) => string {
  const { t } = useTranslation();
  const persons = usePersons();
  return (personIds) => {
    const names = persons
      .filter((person) => personIds?.includes(person.id))
      .map((person) => person.label);
    return names.length ? names.join(', ') : t(WHOLE_FAMILY);
  };
}
