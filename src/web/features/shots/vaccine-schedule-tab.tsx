/**
 * The 'Schedule' tab of /shots (CONTRACT §5): a person's vaccine plan by the schedule the
 * account follows, each dose with its vaccine, 'Dose {n} of {m}', due date and status, and
 * for a dose not given a button 'Record {vaccine} dose {n}' that opens the shot form filled
 * in (for persons the user may keep records of). The vaccines the person is presumed immune
 * to by their date of birth are named, with whom that does not cover. The owner may turn the
 * schedule off for a member ('Not tracked for {name}') and on again. The plan is computed by
 * the server.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DAY_GROUP_FORMAT, formatDate, localToday } from '../../../shared/dates';
import { currentLanguage, tr } from '../../../shared/i18n/translate';
import type { VaccineScheduleAnswer } from '../../../shared/vaccines/schedule-setting';
import { Button, buttonVariants } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Loading } from '../../components/ui/feedback';
import { vaccineScheduleApi } from './vaccine-schedule-api';
import { queryKeys } from '../../lib/query-client';
import { showError, showSuccess } from '../../lib/toast';
import { useSession } from '../auth/session';
import { usePersonInView, withPerson } from '../family-members/person-in-view';
import { PersonSelect, usePersons } from '../family-members/person-select';
import { useSharedPersons } from '../household/household-queries';
import { STATUS_STYLES } from './vaccine-status';

type Dose = VaccineScheduleAnswer['doses'][number];
type Immune = NonNullable<VaccineScheduleAnswer['immune']>[number];

/** The shot form's link for a dose, filled in for the person (the form's person in view). */
function recordLink(dose: Dose, personId: string, today: string): string {
  const params = new URLSearchParams({
    shot_name: tr('{vaccine} dose {dose}', { vaccine: tr(dose.vaccine), dose: dose.dose }),
    vaccine_code: dose.cvx,
    date_administered: today,
  });
  return withPerson(`/shots/new?${params}`, personId);
}

/**
 * When a dose is due, in words: the day it was given, 'due now' for one whose day has come
 * (a catch-up dose of an adult is due now, not since their childhood), else its due date.
 */
export function doseWhen(dose: Dose, today: string): string {
  if (dose.given) return tr('given {date}', { date: formatDate(dose.given, DAY_GROUP_FORMAT) });
  if (dose.status === 'Due' && dose.due < today) return tr('due now');
  return tr('due {date}', { date: formatDate(dose.due, DAY_GROUP_FORMAT) });
}

function DoseRow({ dose, today, recordHref }: { dose: Dose; today: string; recordHref?: string }) {
  const { t } = useTranslation();
  return (
    <Card className="flex flex-wrap items-center justify-between gap-2 p-3">
      <div>
        <p className="font-semibold">{t(dose.vaccine)}</p>
        <p className="text-sm text-muted-foreground">
          {t('Dose {dose} of {of}', { dose: dose.dose, of: dose.of })} · {doseWhen(dose, today)}
          {dose.matchedByName ? ` · ${t('matched by name')}` : null}
        </p>
      </div>
      <div className="flex items-center gap-2">
        <span
          className={`rounded-full px-2.5 py-1 text-xs font-semibold ${STATUS_STYLES[dose.status]}`}
        >
          {t(dose.status)}
        </span>
        {recordHref ? (
          <Link to={recordHref} className={buttonVariants({ variant: 'outline', size: 'sm' })}>
            {t('Record {vaccine} dose {dose}', { vaccine: t(dose.vaccine), dose: dose.dose })}
          </Link>
        ) : null}
      </div>
    </Card>
  );
}

/** A group's name inside a sentence: lower case, but as German writes its nouns. */
const inSentence = (text: string) => (currentLanguage() === 'de' ? text : text.toLowerCase());

function ImmuneNote({ immune }: { immune: Immune[] }) {
  const { t } = useTranslation();
  if (immune.length === 0) return null;
  return (
    <section aria-label={t('Presumed immune')} className="space-y-1 text-sm">
      {immune.map((group) => (
        <p key={group.vaccine}>
          <span className="font-semibold">
            {t('{vaccine}: presumed immune', { vaccine: t(group.vaccine) })}
          </span>
          {t(', born before {year} (CDC). Not for {exclusions}: ask your doctor.', {
            year: group.bornBefore.slice(0, 4),
            exclusions: group.exclusions.map((exclusion) => inSentence(t(exclusion))).join(', '),
          })}
        </p>
      ))}
    </section>
  );
}

export function VaccineScheduleTab() {
  const { t } = useTranslation();
  const persons = usePersons({ shared: true });
  const shared = useSharedPersons();
  const queryClient = useQueryClient();
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
  const tracking = useMutation({
    mutationFn: (tracked: boolean) => vaccineScheduleApi.setTracking(personId, tracked),
    onSuccess: ({ tracked }) => {
      showSuccess({
        title: tracked ? t('Vaccine schedule turned on') : t('Vaccine schedule turned off'),
        description: tracked
          ? t('Vaccines are tracked for {name} again.', { name })
          : t('Vaccines are no longer tracked for {name}.', { name }),
      });
      void queryClient.invalidateQueries({ queryKey: ['vaccine-schedule', personId] });
      void queryClient.invalidateQueries({ queryKey: queryKeys.vaccineDoses(today) });
    },
    onError: (error) => showError(t('Error'), error),
  });
  const me = useSession().data?.user.id;
  const share = shared.find((person) => person.personId === personId);
  const canRecord = !share || share.role === 'editor';
  // The owner decides whether a member's schedule is tracked.
  const canTrack = !share && personId !== me;
  const data = schedule.data;
  const name = data?.name ?? '';

  return (
    <div className="space-y-4">
      <PersonSelect value={personId} onChange={setChosen} shared />
      {schedule.isPending && personId ? <Loading /> : null}
      {schedule.isError ? (
        <p role="alert">{t('The vaccine schedule could not be loaded.')}</p>
      ) : null}
      {data?.schedule === 'none' ? (
        <p>
          {t(
            'No vaccine schedule is chosen. Choose one under Vaccine Schedule in Profile Settings.',
          )}
        </p>
      ) : null}
      {data?.missing === 'date_of_birth' ? (
        <p>{t('Add a date of birth to this person’s profile to see their vaccine schedule.')}</p>
      ) : null}
      {data?.tracked === false ? (
        <Card className="space-y-3 p-4">
          <p className="font-semibold">{t('Not tracked for {name}', { name })}</p>
          <p className="text-sm text-muted-foreground">
            {t(
              'No vaccine is shown as due for {name} on the timeline, in reminders or in a summary. Their shots are still kept.',
              { name },
            )}
          </p>
          {canTrack ? (
            <Button
              type="button"
              variant="outline"
              disabled={tracking.isPending}
              onClick={() => tracking.mutate(true)}
            >
              {t('Track vaccines for {name}', { name })}
            </Button>
          ) : null}
        </Card>
      ) : null}
      {data && data.schedule !== 'none' && !data.missing && data.tracked !== false ? (
        <>
          <p className="text-sm text-muted-foreground">
            {t('This schedule is advice, not a prescription: ask your doctor. Source: {source}.', {
              source: data.source,
            })}
          </p>
          <ImmuneNote immune={data.immune ?? []} />
          <ul className="space-y-2" aria-label={t('Vaccine schedule')}>
            {data.doses.map((dose) => (
              <li key={`${dose.vaccine}-${dose.dose}-${dose.due}`}>
                <DoseRow
                  dose={dose}
                  today={today}
                  recordHref={
                    dose.status !== 'Done' && canRecord
                      ? recordLink(dose, personId, today)
                      : undefined
                  }
                />
              </li>
            ))}
          </ul>
          {canTrack ? (
            <Button
              type="button"
              variant="ghost"
              disabled={tracking.isPending}
              onClick={() => tracking.mutate(false)}
            >
              {t('Stop tracking vaccines for {name}', { name })}
            </Button>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
