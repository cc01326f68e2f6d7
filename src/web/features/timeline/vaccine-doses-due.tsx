/**
 * The timeline's 'Vaccines due': the doses due in the next 30 days or overdue of every
 * person in reach, each with the person, the vaccine, the dose and its status, linking to
 * that person's Schedule tab on /shots. Nothing when there are none (or the account follows
 * no vaccine schedule).
 */
import { useQuery } from '@tanstack/react-query';
import { ChevronRight, Syringe } from 'lucide-react';
import { Link } from 'react-router';
import { DAY_GROUP_FORMAT, formatDate, localToday } from '../../../shared/dates';
import { timelineApi } from '../../lib/api';
import { queryKeys } from '../../lib/query-client';
import { scheduleTabLink } from '../../../shared/vaccines/schedule-setting';
import { STATUS_STYLES } from '../shots/vaccine-status';

export function VaccineDosesDue({ member }: { member: string | undefined }) {
  const today = localToday();
  const due = useQuery({
    queryKey: queryKeys.vaccineDoses(today),
    queryFn: () => timelineApi.vaccineDoses(today),
  });
  const doses = (due.data?.doses ?? []).filter(
    (dose) => member === undefined || dose.personId === member,
  );
  if (doses.length === 0) return null;
  return (
    <section aria-labelledby="vaccines-due-heading" className="mb-5">
      <h2 id="vaccines-due-heading" className="mb-2 text-sm font-semibold text-primary">
        Vaccines due
      </h2>
      <ul className="space-y-2">
        {doses.map((dose) => (
          <li key={`${dose.personId}-${dose.vaccine}-${dose.dose}`}>
            <Link
              to={scheduleTabLink(dose.personId)}
              aria-label={`${dose.name}: ${dose.vaccine} dose ${dose.dose}, ${dose.status}, ${formatDate(dose.due, DAY_GROUP_FORMAT)}`}
              className="group flex items-center gap-3 rounded-2xl border border-border bg-surface p-3.5 transition-colors hover:border-primary"
            >
              <Syringe className="size-5 shrink-0 text-primary" aria-hidden="true" />
              <span className="min-w-0 flex-1">
                <span className="block truncate font-semibold">
                  {dose.vaccine} dose {dose.dose}
                </span>
                <span className="block text-sm text-muted-foreground">
                  {dose.name} · due {formatDate(dose.due, DAY_GROUP_FORMAT)}
                </span>
              </span>
              <span
                className={`rounded-full px-2.5 py-1 text-xs font-semibold ${STATUS_STYLES[dose.status]}`}
              >
                {dose.status}
              </span>
              <ChevronRight className="size-5 text-muted-foreground" aria-hidden="true" />
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
