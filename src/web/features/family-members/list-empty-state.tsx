/**
 * What a list that follows the member strip says when it shows nothing: SPEC.md's words
 * ('No upcoming visits') when it shows everyone, and, filtered to one person, the same words
 * said of them ('No upcoming visits for Mia'): others may well have records, and the list's
 * own words would say the family has none.
 */
import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/ui/feedback';
import { useChosenPersonName } from './member-filter';
import { usePersonInView } from './person-in-view';

/**
 * An empty list's words said of one person: 'No upcoming visits' → 'No upcoming visits for
 * Mia', 'No allergies recorded yet' → 'No allergies recorded for Mia yet'.
 */
export function emptyFor(title: string, name: string): string {
  return title.endsWith(' yet')
    ? `${title.slice(0, -' yet'.length)} for ${name} yet`
    : `${title} for ${name}`;
}

/**
 * What a list says when it shows nothing: SPEC.md's words (and what follows them, such as
 * 'Schedule your first visit') when it shows everyone; filtered to one person, the same
 * words said of them, since others may have records. `title` may come translated already
 * (`t('No upcoming visits')`); in English the person is woven in as `emptyFor` does, in the
 * other languages the catalogue's '{title} for {name}' says it.
 */
export function ListEmptyState({
  icon,
  title,
  memberLinked = true,
  children,
}: {
  icon: LucideIcon;
  /** SPEC.md's words for an empty list: 'No upcoming visits' (or its translation). */
  title: string;
  /** Whether the list follows the member strip (contacts do not). */
  memberLinked?: boolean;
  /** Shown with the list's own words only, such as a link to add the first record. */
  children?: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const [member] = usePersonInView();
  const name = useChosenPersonName();
  const words = t(title);
  if (!memberLinked || member === undefined)
    return (
      <EmptyState icon={icon} title={words}>
        {children}
      </EmptyState>
    );
  const person = name ?? t('this person');
  return (
    <EmptyState
      icon={icon}
      title={
        i18n.language === 'en'
          ? emptyFor(words, person)
          : t('{title} for {name}', { title: words, name: person })
      }
    />
  );
}
