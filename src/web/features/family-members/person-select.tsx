/**
 * The 'Person' select (CONTRACT.md §4): the account holder by full name followed by
 * ' (you)', then each family member by name, then (where asked for) the persons shared with
 * the user on a grant that allows sharing and export. Its value is a person id: the user's
 * own id, a family member's, or a shared person's.
 */
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Sex } from '../../../shared/family-members';
import { Label, Select } from '../../components/ui/input';
import { useSession } from '../auth/session';
import { sharedPersonLabel, useSharedPersons } from '../household/household-queries';
import { useFamilyMembers } from './family-member-queries';
import { useLastPersonInView } from './person-in-view';

export interface PersonOption {
  id: string;
  label: string;
  /** `YYYY-MM-DD`, when known (the account holder has none). */
  dateOfBirth: string | null;
  sex: Sex | null;
}

export interface PersonsOptions {
  /** Also the persons shared with the user that they may share and export. */
  exportable?: boolean;
  /** Also every person shared with the user, a Viewer's too. */
  shared?: boolean;
  /** Only the persons a screen applies to (growth charts: a date of birth and a sex). */
  only?: (person: PersonOption) => boolean;
}

/**
 * The persons the user keeps records for, in the select's order; with `exportable` or
 * `shared`, also (some of) those shared with them; with `only`, those it keeps.
 */
export function usePersons(options: PersonsOptions = {}): PersonOption[] {
  const { t } = useTranslation();
  const session = useSession();
  const members = useFamilyMembers();
  const shared = useSharedPersons();
  const user = session.data?.user;
  const persons: PersonOption[] = [
    ...(user
      ? [
          {
            id: user.id,
            label: t('{name} (you)', { name: user.name }),
            dateOfBirth: null,
            sex: null,
          },
        ]
      : []),
    ...(members.data ?? []).map((member) => ({
      id: member.id,
      label: member.name,
      dateOfBirth: member.date_of_birth ?? null,
      sex: member.sex ?? null,
    })),
    ...(options.exportable || options.shared
      ? shared
          .filter((person) => options.shared || person.allowExport)
          .map((person) => ({
            id: person.personId,
            label: sharedPersonLabel(person),
            dateOfBirth: person.dateOfBirth,
            sex: person.sex,
          }))
      : []),
  ];
  return options.only ? persons.filter(options.only) : persons;
}

/**
 * The person a screen's 'Person' select holds: the one chosen there, else the person in view
 * (the URL's, or the last chosen in a filter of this tab) when the select offers them, else
 * its first person.
 */
export function useChosenPerson(options: PersonsOptions = {}) {
  const persons = usePersons(options);
  const inView = useLastPersonInView();
  const [chosen, choose] = useState('');
  const personId =
    chosen || persons.find((person) => person.id === inView)?.id || persons[0]?.id || '';
  return { persons, personId, choose };
}

export function PersonSelect({
  value,
  onChange,
  disabled,
  label,
  everyone,
  exportable,
  shared,
  only,
}: {
  /**
   * A person id; '' is everyone when `everyone` is given, else the first person (until the
   * persons are known).
   */
  value: string;
  onChange: (personId: string) => void;
  disabled?: boolean;
  label?: string;
  /** The words of a first option that stands for every person (value ''). */
  everyone?: string;
  /** Also offer the persons shared with the user that they may share and export. */
  exportable?: boolean;
  /** Also offer every person shared with the user, a Viewer's too. */
  shared?: boolean;
  /** Offer only the persons this keeps. */
  only?: PersonsOptions['only'];
}) {
  const { t } = useTranslation();
  const id = useId();
  const persons = usePersons({ exportable, shared, only });
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label ?? t('Person')}</Label>
      <Select
        id={id}
        value={everyone !== undefined ? value : value || persons[0]?.id || ''}
        onChange={(event) => onChange(event.target.value)}
        disabled={disabled || persons.length === 0}
      >
        {everyone !== undefined ? <option value="">{everyone}</option> : null}
        {persons.map((person) => (
          <option key={person.id} value={person.id}>
            {person.label}
          </option>
        ))}
      </Select>
    </div>
  );
}
