/**
 * "Today's Medications" on the timeline (CONTRACT.md §4): every dose due today, by time of
 * day, with 'Taken' and 'Skip'; a marked dose says 'Taken at h:mm a' or 'Skipped' and can be
 * undone; those taken at no set time are under 'Any time'. 'As Needed' medications are
 * logged when taken. With the member filter set, only
 * that person's doses show.
 */
import { Check, Pill, Undo2, X } from 'lucide-react';
import { useEffect, useId, useRef, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ANY_TIME,
  DOSE_SLOTS,
  type AsNeededMedication,
  type TodayDose,
} from '../../../shared/doses';
import { MemberBadge } from '../../components/member-badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { formatDate, formatNumber, localToday } from '../../../shared/dates';
import { useRecordOwnership } from '../household/household-queries';
import { useDoseMarks, useTodayDoses } from './dose-queries';

/** The day's groups: the times of day, then the doses taken at no set time. */
const SLOTS = [...DOSE_SLOTS, ANY_TIME] as const;

/** A medication and its amount, the amount read as one: '10 mg' is not split across lines. */
function MedicationName({
  id,
  name,
  dosage,
}: {
  id?: string;
  name: string;
  dosage: string | null;
}) {
  return (
    <span id={id} className="block font-medium">
      {name}
      {dosage ? (
        <>
          {' '}
          {/* The separator goes with the dosage: a wrapped name never ends in a lone '·'. */}
          <span className="whitespace-nowrap text-muted-foreground">· {dosage}</span>
        </>
      ) : null}
    </span>
  );
}

function DoseRow({ dose }: { dose: TodayDose }) {
  const { t } = useTranslation();
  const { mark, undo } = useDoseMarks();
  // A person shared with the user as Viewer: their doses are shown, not marked.
  const { canChange } = useRecordOwnership()(dose);
  const busy = mark.isPending || undo.isPending;
  const rowId = useId();
  // Marking replaces the buttons pressed: a keyboard user's focus follows to the ones that
  // replace them (Undo after marking, Taken after undoing) instead of falling to the page.
  const focusFollows = useRef(false);
  const undoButton = useRef<HTMLButtonElement>(null);
  const takenButton = useRef<HTMLButtonElement>(null);
  const marked = dose.mark !== null;
  useEffect(() => {
    if (!focusFollows.current) return;
    focusFollows.current = false;
    (marked ? undoButton : takenButton).current?.focus();
  }, [marked]);
  const pressed = (event: MouseEvent<HTMLButtonElement>) => {
    focusFollows.current = document.activeElement === event.currentTarget;
  };
  const send = (status: 'taken' | 'skipped') =>
    mark.mutate({
      medication_id: dose.medication_id,
      day: localToday(),
      slot: dose.slot,
      status,
    });
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-2 py-2.5">
      {/* At least 6rem for the name: on a narrow phone the buttons wrap below it instead. */}
      <span className="min-w-24 flex-1 break-words">
        <MedicationName id={`${rowId}-name`} name={dose.medication_name} dosage={dose.dosage} />
        <MemberBadge name={dose.family_member_name} color={dose.family_member_color} />
      </span>
      {dose.mark ? (
        <span className="flex items-center gap-2">
          <span
            id={`${rowId}-mark`}
            className={
              dose.mark.status === 'taken'
                ? 'text-sm font-medium text-primary'
                : 'text-sm text-muted-foreground'
            }
          >
            {dose.mark.status === 'taken'
              ? t('Taken at {time}', { time: formatDate(dose.mark.marked_at, 'h:mm a') })
              : t('Skipped')}
          </span>
          {canChange ? (
            <Button
              ref={undoButton}
              type="button"
              size="sm"
              variant="ghost"
              // 'Undo', described by what it undoes: 'Taken at 8:02 AM', 'Lisinopril · 10 mg'.
              aria-describedby={`${rowId}-mark ${rowId}-name`}
              disabled={busy}
              onClick={(event) => {
                pressed(event);
                if (dose.mark) undo.mutate(dose.mark.id);
              }}
            >
              <Undo2 aria-hidden="true" />
              {t('Undo')}
            </Button>
          ) : null}
        </span>
      ) : !canChange ? (
        <span className="text-sm text-muted-foreground">{t('Not marked yet')}</span>
      ) : (
        <span className="flex items-center gap-2">
          <Button
            ref={takenButton}
            type="button"
            size="sm"
            disabled={busy}
            aria-label={t('Mark {medication} {slot} taken', {
              medication: dose.medication_name,
              slot: t(dose.slot),
            })}
            onClick={(event) => {
              pressed(event);
              send('taken');
            }}
          >
            <Check aria-hidden="true" />
            {t('Taken')}
          </Button>
          <Button
            type="button"
            size="sm"
            variant="outline"
            disabled={busy}
            aria-label={t('Skip {medication} {slot}', {
              medication: dose.medication_name,
              slot: t(dose.slot),
            })}
            onClick={(event) => {
              pressed(event);
              send('skipped');
            }}
          >
            <X aria-hidden="true" />
            {t('Skip')}
          </Button>
        </span>
      )}
    </li>
  );
}

function AsNeededRow({ item }: { item: AsNeededMedication }) {
  const { t } = useTranslation();
  const { mark } = useDoseMarks();
  const { canChange } = useRecordOwnership()(item);
  const last = item.taken.at(-1);
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-2 py-2.5">
      {/* At least 6rem for the name: on a narrow phone the buttons wrap below it instead. */}
      <span className="min-w-24 flex-1 break-words">
        <MedicationName name={item.medication_name} dosage={item.dosage} />
        <span className="flex flex-wrap items-center gap-x-3 text-sm text-muted-foreground">
          <span>
            {t('As needed')}
            {last
              ? ` · ${t('taken {n}× today, last at {time}', {
                  n: formatNumber(item.taken.length),
                  time: formatDate(last.marked_at, 'h:mm a'),
                })}`
              : ''}
          </span>
          <MemberBadge name={item.family_member_name} color={item.family_member_color} />
        </span>
      </span>
      {canChange ? (
        <Button
          type="button"
          size="sm"
          variant="outline"
          disabled={mark.isPending}
          aria-label={t('Log {medication} taken', { medication: item.medication_name })}
          onClick={() =>
            mark.mutate({
              medication_id: item.medication_id,
              day: localToday(),
              slot: 'As Needed',
              status: 'taken',
            })
          }
        >
          <Check aria-hidden="true" />
          {t('Log dose')}
        </Button>
      ) : null}
    </li>
  );
}

export function TodaysMedications({ member }: { member: string | undefined }) {
  const { t } = useTranslation();
  const today = useTodayDoses();
  if (!today.data) return null;
  const theirs = (item: { family_member_id: string | null }) =>
    member === undefined || item.family_member_id === member;
  const doses = today.data.doses.filter(theirs);
  const asNeeded = today.data.as_needed.filter(theirs);
  if (doses.length === 0 && asNeeded.length === 0) return null;
  return (
    <section aria-labelledby="todays-medications" className="mb-5">
      <h2 id="todays-medications" className="mb-2 flex items-center gap-2 font-semibold">
        <Pill className="size-4 text-primary" aria-hidden="true" />
        {t("Today's Medications")}
      </h2>
      <Card className="px-4 py-1">
        {SLOTS.map((slot) => {
          const due = doses.filter((dose) => dose.slot === slot);
          if (due.length === 0) return null;
          return (
            <div key={slot} className="border-b border-border py-1 last:border-b-0">
              <h3 className="pt-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
                {t(slot)}
              </h3>
              <ul className="divide-y divide-border">
                {due.map((dose) => (
                  <DoseRow key={`${dose.medication_id}-${dose.slot}`} dose={dose} />
                ))}
              </ul>
            </div>
          );
        })}
        {asNeeded.length > 0 ? (
          <div className="py-1">
            <h3 className="pt-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
              {t('As needed')}
            </h3>
            <ul className="divide-y divide-border">
              {asNeeded.map((item) => (
                <AsNeededRow key={item.medication_id} item={item} />
              ))}
            </ul>
          </div>
        ) : null}
      </Card>
    </section>
  );
}
