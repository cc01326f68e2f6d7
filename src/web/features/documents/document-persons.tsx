/**
 * Whose a document is, as its dialogs' 'Family Member' select says it: '' for the user
 * themself ('{full name} (you)'), a member of theirs by id, or a person shared with them as
 * Editor by the person's id (the member's, or the owner's own). A document stays with the
 * account that keeps it, so a dialog about one offers only that account's persons.
 */
import { useTranslation } from 'react-i18next';
import { useSession } from '../auth/session';
import { useFamilyMembers } from '../family-members/family-member-queries';
import { sharedPersonLabel, useSharedPersons } from '../household/household-queries';

export interface DocumentPersonOption {
  /** The select's value: '' for the user themself. */
  value: string;
  label: string;
  /** The account that keeps the person's records. */
  ownerId: string;
  /** The person's name alone (no '(you)', no owner). */
  name: string;
}

/** The persons a document may be of: the user's own, then those shared with them as Editor. */
export function useDocumentPersons(): DocumentPersonOption[] {
  const { t } = useTranslation();
  const user = useSession().data?.user;
  const members = useFamilyMembers();
  const shared = useSharedPersons();
  if (!user) return [];
  return [
    { value: '', label: t('{name} (you)', { name: user.name }), ownerId: user.id, name: user.name },
    ...(members.data ?? []).map((member) => ({
      value: member.id,
      label: member.name,
      ownerId: user.id,
      name: member.name,
    })),
    ...shared
      .filter((person) => person.role === 'editor')
      .map((person) => ({
        value: person.personId,
        label: sharedPersonLabel(person),
        ownerId: person.ownerId,
        name: person.name,
      })),
  ];
}

/** The select's value for a document's (or a record's) person, as the user sees it. */
export function personValueOf(
  row: { user_id: string; family_member_id?: string | null },
  me: string | undefined,
): string {
  return row.user_id === me ? (row.family_member_id ?? '') : (row.family_member_id ?? row.user_id);
}

/** The person id the API knows a select's value by ('' is the user's own id). */
export const personIdOf = (value: string, me: string | undefined) => value || me || '';
