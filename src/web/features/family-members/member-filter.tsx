/**
 * The family-member filter strip: 'All', the account holder ('{full name} (you)'), then one
 * button per member in creation order, then each person shared with the user (marked as
 * shared); the active one is pressed.
 */
import { useTranslation } from 'react-i18next';
import { DEFAULT_MEMBER_COLOR } from '../../../shared/constants';
import { cn } from '../../lib/cn';
import { useSession } from '../auth/session';
import { useSharedPersons } from '../household/household-queries';
import { useFamilyMembers } from './family-member-queries';
import { usePersonInView } from './person-in-view';

/** A person the strip offers: a member of the user's, or one shared with them. */
export interface FilterPerson {
  id: string;
  name: string;
  color: string;
  sharedBy?: string;
}

export function MemberFilter({
  members,
  value,
  onChange,
}: {
  members: readonly FilterPerson[];
  value: string | undefined;
  onChange: (memberId: string | undefined) => void;
}) {
  const { t } = useTranslation();
  const chip =
    'inline-flex min-h-10 shrink-0 items-center gap-2 rounded-full border px-4 text-sm font-semibold transition-colors';
  const active = 'border-primary bg-primary text-primary-foreground';
  const idle = 'border-border bg-surface text-foreground hover:border-primary';
  return (
    <div
      role="group"
      aria-label={t('Filter by family member')}
      // Relative, so that the screen-reader text in a chip scrolls with the strip instead of
      // widening the page.
      className="relative -mx-4 mb-4 overflow-x-auto px-4 pb-1 lg:-mx-8 lg:px-8"
    >
      <div className="flex w-max gap-2">
        <button
          type="button"
          aria-pressed={value === undefined}
          className={cn(chip, value === undefined ? active : idle)}
          onClick={() => onChange(undefined)}
        >
          {t('All')}
        </button>
        {members.map((member) => (
          <button
            key={member.id}
            type="button"
            aria-pressed={value === member.id}
            className={cn(chip, value === member.id ? active : idle)}
            onClick={() => onChange(member.id)}
          >
            <span
              className="size-2.5 rounded-full ring-2 ring-white/70"
              style={{ backgroundColor: member.color }}
              aria-hidden="true"
            />
            <span className="max-w-48 truncate">{member.name}</span>
            {member.sharedBy ? (
              <span className="text-xs font-medium opacity-80">
                <span className="sr-only">, </span>
                {t('shared')}
              </span>
            ) : null}
          </button>
        ))}
      </div>
    </div>
  );
}

/**
 * The persons the strip offers: the account holder (their own records), the user's members,
 * and the persons shared with them.
 */
function useFilterPersons(): FilterPerson[] {
  const { t } = useTranslation();
  const members = useFamilyMembers();
  const shared = useSharedPersons();
  const user = useSession().data?.user;
  return [
    ...(user
      ? [{ id: user.id, name: t('{name} (you)', { name: user.name }), color: DEFAULT_MEMBER_COLOR }]
      : []),
    ...(members.data ?? []),
    ...shared.map((person) => ({
      id: person.personId,
      name: person.name,
      color: person.color,
      sharedBy: person.ownerName,
    })),
  ];
}

/**
 * The name of the person the strip chose, as a sentence names them ('Mia', the user's own
 * full name); undefined when it shows everyone, or before the persons have loaded.
 */
export function useChosenPersonName(): string | undefined {
  const [member] = usePersonInView();
  const user = useSession().data?.user;
  const persons = useFilterPersons();
  if (!member) return undefined;
  if (member === user?.id) return user.name;
  return persons.find((person) => person.id === member)?.name;
}

/** The strip wired to the persons it offers and the person in view (the URL's `?person=`). */
export function FamilyFilter() {
  const persons = useFilterPersons();
  const [member, setMember] = usePersonInView();
  return <MemberFilter members={persons} value={member} onChange={setMember} />;
}
