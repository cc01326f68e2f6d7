/**
 * The 'Schedule' tab of /shots (CONTRACT §5): a person's vaccine plan by the schedule the
 * account follows, each dose with its vaccine, 'Dose {n} of {m}', due date and status, and
 * for a dose not given a button 'Record {vaccine} dose {n}' that opens the shot form filled
 * in (for persons the user may keep records of). The plan is computed by the server.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { DAY_GROUP_FORMAT, formatDate, localToday } from '../../../shared/dates';
import type { VaccineScheduleAnswer } from '../../../shared/vaccines/schedule-setting';
import { buttonVariants } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Loading } from '../../components/ui/feedback';
import { vaccineScheduleApi } from '../../lib/api';
import { usePersonInView, withPerson } from '../family-members/person-in-view';
import { PersonSelect, usePersons } from '../family-members/person-select';
import { useSharedPersons } from '../household/household-queries';
import { STATUS_STYLES } from './vaccine-status';

type Dose = VaccineScheduleAnswer['doses'][number];

/** The shot form's link for a dose, filled in for the person (the form's person in view). */
function recordLink(dose: Dose, personId: string, today: string): string {
  const params = new URLSearchParams({
    shot_name: `${dose.vaccine} dose ${dose.dose}`,
    vaccine_code: dose.cvx,
    date_administered: today,
  });
  return withPerson(`/shots/new?${params}`, personId);
}

function DoseRow({ dose, recordHref }: { dose: Dose; recordHref?: string }) {
  return (
    <Card className="flex flex-wrap items-center justify-between gap-2 p-3">
      <div>
        <p className="font-semibold">{dose.vaccine}</p>
        <p className="text-sm text-muted-foreground">
          Dose {dose.dose} of {dose.of} ·{' '}
          {dose.given
            ? `given ${formatDate(dose.given, DAY_GROUP_FORMAT)}`
            : `due ${formatDate(dose.due, DAY_GROUP_FORMAT)}`}
          {dose.matchedByName ? ' · matched by name' : null}
        </p>
      </div>
      <div className="flex items-center gap-2">
        <span
          className={`rounded-full px-2.5 py-1 text-xs font-semibold ${STATUS_STYLES[dose.status]}`}
        >
          {dose.status}
        </span>
        {recordHref ? (
          <Link to={recordHref} className={buttonVariants({ variant: 'outline', size: 'sm' })}>
            Record {dose.vaccine} dose {dose.dose}
          </Link>
        ) : null}
      </div>
    </Card>
  );
}

export function VaccineScheduleTab() {
  const persons = usePersons({ shared: true });
  const shared = useSharedPersons();
  // The person in view: the one the member strip or this select chose (the same `?person=`).
  const [chosen, setChosen] = usePersonInView();
  const personId = chosen ?? persons[0]?.id ?? '';
  const today = localToday();
  const schedule = useQuery({
    queryKey: ['vaccine-schedule', personId, today],
    queryFn: () => vaccineScheduleApi.get(personId, today),
    enabled: personId !== '',
    // A shot saved elsewhere changes the plan: ask again whenever the tab or person changes.
    staleTime: 0,
    refetchOnMount: 'always',
  });
  const share = shared.find((person) => person.personId === personId);
  const canRecord = !share || share.role === 'editor';
  const data = schedule.data;

  return (
    <div className="space-y-4">
      <PersonSelect value={personId} onChange={setChosen} shared />
      {schedule.isPending && personId ? <Loading /> : null}
      {schedule.isError ? <p role="alert">The vaccine schedule could not be loaded.</p> : null}
      {data?.schedule === 'none' ? (
        <p>No vaccine schedule is chosen. Choose one under Vaccine Schedule in Profile Settings.</p>
      ) : null}
      {data?.missing === 'date_of_birth' ? (
        <p>Add a date of birth to this person’s profile to see their vaccine schedule.</p>
      ) : null}
      {data && data.schedule !== 'none' && !data.missing ? (
        <>
          <p className="text-sm text-muted-foreground">
            This schedule is advice, not a prescription: ask your doctor. Source: {data.source}.
          </p>
          <ul className="space-y-2" aria-label="Vaccine schedule">
            {data.doses.map((dose) => (
              <li key={`${dose.vaccine}-${dose.dose}-${dose.due}`}>
                <DoseRow
                  dose={dose}
                  recordHref={
                    dose.status !== 'Done' && canRecord
                      ? recordLink(dose, personId, today)
                      : undefined
                  }
                />
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
