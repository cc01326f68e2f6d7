/**
 * The person in view (CONTRACT.md §6): the one person a screen is filtered to, by the member
 * strip or a 'Person' select. It lives in the URL (`?person={id}`, the user's own id for
 * their own records), so that Back, a reload and the return after saving keep it; and the
 * last one chosen is remembered for the tab, so that a screen reached without it (/share,
 * from the bottom navigation) opens on that person too (docs/decisions/0046).
 */
import { useCallback, useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { clearDraft, draftKey, readDraft, writeDraft } from '../../lib/drafts';
import { useSession } from '../auth/session';
import { useHousehold } from '../household/household-queries';
import { useFamilyMembers } from './family-member-queries';

export const PERSON_PARAM = 'person';
/** The parameter the member strip used before (`?member=`), still read from older links. */
const OLD_PERSON_PARAM = 'member';

/** `path` with `?person=` (or `&person=`) added; `path` itself when there is no person. */
export function withPerson(path: string, personId: string | undefined): string {
  if (!personId) return path;
  const [pathname = '', query = ''] = path.split('?');
  const params = new URLSearchParams(query);
  params.set(PERSON_PARAM, personId);
  return `${pathname}?${params}`;
}

/** The person a URL's query names, if any. */
export function personOfParams(params: URLSearchParams): string | undefined {
  return params.get(PERSON_PARAM) || params.get(OLD_PERSON_PARAM) || undefined;
}

/**
 * Where the tab remembers its person in view: with the drafts of its forms (sessionStorage,
 * per user), so that it is forgotten with them at sign-out.
 */
const memoryKey = (userId: string) => draftKey(userId, 'person-in-view', undefined);

function remember(userId: string | undefined, personId: string | undefined) {
  if (!userId) return;
  if (personId) writeDraft(memoryKey(userId), personId);
  else clearDraft(memoryKey(userId));
}

/**
 * The person in view of this screen (from the URL) and a way to choose another (or none:
 * everyone), which replaces the URL's entry rather than adding one to the history.
 */
export function usePersonInView(): [string | undefined, (personId: string | undefined) => void] {
  const [params, setParams] = useSearchParams();
  const userId = useSession().data?.user.id;
  const person = personOfParams(params);
  // A screen opened on a person (a link, a reload) puts them in view as a choice would.
  useEffect(() => {
    if (person) remember(userId, person);
  }, [person, userId]);
  const choose = useCallback(
    (personId: string | undefined) => {
      remember(userId, personId);
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete(OLD_PERSON_PARAM);
          if (personId) next.set(PERSON_PARAM, personId);
          else next.delete(PERSON_PARAM);
          return next;
        },
        { replace: true },
      );
    },
    [setParams, userId],
  );
  return [person, choose];
}

/**
 * The person a screen without a filter of its own starts on: the URL's, else the last one
 * chosen in this tab; undefined when none is (the screen's own first person then).
 */
export function useLastPersonInView(): string | undefined {
  const [params] = useSearchParams();
  const userId = useSession().data?.user.id;
  const asked = personOfParams(params);
  if (asked) return asked;
  return userId ? readDraft<string>(memoryKey(userId)) : undefined;
}

/**
 * The 'Family Member' a new record of a person starts on: '' for the user themself (the
 * select's '{full name} (you)'), the person's id for a member of theirs or a person shared
 * with them as Editor; undefined while the choices load, and for a person no form offers (a
 * Viewer's), who is then left to be chosen.
 */
export function useFamilyMemberOf(personId: string | undefined): string | undefined {
  const userId = useSession().data?.user.id;
  const members = useFamilyMembers();
  const household = useHousehold();
  if (!personId || !userId || !members.data || !household.data) return undefined;
  if (personId === userId) return '';
  const offered =
    members.data.some((member) => member.id === personId) ||
    household.data.received.some(
      (person) => person.personId === personId && person.role === 'editor',
    );
  return offered ? personId : undefined;
}
