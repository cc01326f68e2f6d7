/**
 * The timeline's 'Vaccines due': one card per person in reach with doses overdue, due, or
 * due within the next 30 days, saying how many of each, linking to that person's Schedule
 * tab on /shots (where each dose is listed). Nothing when there are none (or the account
 * follows no vaccine schedule).
 */
import { useQuery } from '@tanstack/react-query';
import { ChevronRight, Syringe } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { localToday } from '../../../shared/dates';
import { key, tr } from '../../../shared/i18n/translate';
import { scheduleTabLink, type PersonDosesDue } from '../../../shared/vaccines/schedule-setting';
import { timelineApi } from '../../lib/api';
import { queryKeys } from '../../lib/query-client';
import { STATUS_STYLES } from '../shots/vaccine-status';

const doses = (count: number) => tr('{count} vaccine doses', { count });

/** '2 overdue · 1 due now · 1 within 30 days': the parts there are. */
export function dosesDueSummary(person: PersonDosesDue): string {
  return [
    person.overdue ? tr('{count} overdue', { count: person.overdue }) : '',
    person.due ? tr('{count} due now', { count: person.due }) : '',
    person.soon ? tr('{count} within 30 days', { count: person.soon }) : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

/** A person's most pressing status, which names its style; and its words. */
const STATUS_WORDS = { Overdue: key('Overdue'), Due: key('Due'), Upcoming: key('Upcoming') };
const statusOf = (person: PersonDosesDue): keyof typeof STATUS_WORDS =>
  person.overdue ? 'Overdue' : person.due ? 'Due' : 'Upcoming';

export function VaccineDosesDue({ member }: { member: string | undefined }) {
  const { t } = useTranslation();
  const today = localToday();
  const due = useQuery({
    queryKey: queryKeys.vaccineDoses(today),
    queryFn: () => timelineApi.vaccineDoses(today),
  });
  const persons = (due.data?.persons ?? []).filter(
    (person) => member === undefined || person.personId === member,
  );
  if (persons.length === 0) return null;
  return (
    <section aria-labelledby="vaccines-due-heading" className="mb-5">
      <h2 id="vaccines-due-heading" className="mb-2 text-sm font-semibold text-primary">
        {t('Vaccines due')}
      </h2>
      <ul className="space-y-2">
        {persons.map((person) => {
          const total = person.overdue + person.due + person.soon;
          const status = statusOf(person);
          const summary = dosesDueSummary(person);
          return (
            <li key={person.personId}>
              <Link
                to={scheduleTabLink(person.personId)}
                aria-label={`${person.name}: ${doses(total)}, ${summary}`}
                className="group flex items-center gap-3 rounded-2xl border border-border bg-surface p-3.5 transition-colors hover:border-primary"
              >
                <Syringe className="size-5 shrink-0 text-primary" aria-hidden="true" />
                <span className="min-w-0 flex-1">
                  {/* Wrapped, not cut: the side column at a desk is narrow beside the badge. */}
                  <span className="block font-semibold break-words">
                    {person.name} · {doses(total)}
                  </span>
                  <span className="block text-sm text-muted-foreground">{summary}</span>
                </span>
                <span
                  className={`shrink-0 rounded-full px-2.5 py-1 text-xs font-semibold ${STATUS_STYLES[status]}`}
                >
                  {t(STATUS_WORDS[status])}
                </span>
                <ChevronRight
                  className="size-5 shrink-0 text-muted-foreground"
                  aria-hidden="true"
                />
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
