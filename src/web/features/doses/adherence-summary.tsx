/**
 * 'Adherence (30 days)' on a medication's detail: taken ÷ due over the last 30 days (a
 * dose whose day is over and was never marked counts as missed, from the day the
 * medication was added on; the days before are 'not tracked'), the last 14 days as a strip
 * of days, each named for screen readers, and a past day's doses to mark taken or skipped.
 */
import { Check, X } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BACKFILL_DAYS, type Adherence, type StripDay } from '../../../shared/doses';
import { addDays } from '../../../shared/date-values';
import { formatDate, formatNumber, localToday } from '../../../shared/dates';
import { key } from '../../../shared/i18n/translate';
import { Button } from '../../components/ui/button';
import { Label, Select } from '../../components/ui/input';
import { cn } from '../../lib/cn';
import { useRecordOwnership } from '../household/household-queries';
import { useAdherence, useDoseMarks } from './dose-queries';

const STRIP: Record<StripDay, { label: string; className: string }> = {
  taken: { label: key('all taken'), className: 'bg-primary' },
  partly: { label: key('partly taken'), className: 'bg-primary/45' },
  skipped: { label: key('skipped'), className: 'bg-amber-400' },
  missed: { label: key('missed'), className: 'bg-destructive/70' },
  due: { label: key('still due'), className: 'border border-primary bg-transparent' },
  untracked: {
    label: key('not tracked'),
    className:
      'border border-dashed border-muted-foreground/60 bg-[repeating-linear-gradient(135deg,transparent_0_3px,var(--color-border)_3px_5px)]',
  },
  none: { label: key('nothing due'), className: 'bg-border' },
};

const DOSE_STATE = {
  taken: key('Taken'),
  skipped: key('Skipped'),
  missed: key('Missed'),
  due: key('Still due'),
  untracked: key('Not tracked'),
} as const;

/** The strip's kinds of day the legend names. */
const LEGEND = ['taken', 'partly', 'skipped', 'missed', 'untracked'] as const;

/** The two marks a past dose can be given. */
const MARKS = [
  { status: 'taken', text: key('Taken'), Icon: Check, variant: undefined },
  { status: 'skipped', text: key('Skipped'), Icon: X, variant: 'outline' },
] as const;

const dayName = (day: string) => formatDate(day, 'MMM d');

/** A past day of the strip, its due doses each marked taken or skipped with one button. */
function PastDoses({
  medication,
  strip,
}: {
  medication: { id: string; medication_name: string };
  strip: Adherence['strip'];
}) {
  const today = localToday();
  const earliest = addDays(today, -BACKFILL_DAYS);
  const days = strip
    .filter(({ day, doses }) => day < today && day >= earliest && doses.length > 0)
    .reverse();
  const { t } = useTranslation();
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const { mark } = useDoseMarks();
  if (days.length === 0) return null;
  const shown = days.find(({ day }) => day === chosen) ?? days[0];
  if (!shown) return null;
  const selectId = `past-doses-${medication.id}`;
  return (
    <div className="space-y-2 pt-1">
      <Label htmlFor={selectId}>{t('Fill in a past day')}</Label>
      <Select id={selectId} value={shown.day} onChange={(event) => setChosen(event.target.value)}>
        {days.map(({ day, status }) => (
          <option key={day} value={day}>
            {t('{day}: {status}', { day: dayName(day), status: t(STRIP[status].label) })}
          </option>
        ))}
      </Select>
      <ul
        className="divide-y divide-border"
        aria-label={t('Doses of {day}', { day: dayName(shown.day) })}
      >
        {shown.doses.map(({ slot, state }) => {
          const names = {
            medication: medication.medication_name,
            slot: t(slot),
            day: dayName(shown.day),
          };
          return (
            <li key={slot} className="flex flex-wrap items-center gap-x-3 gap-y-2 py-2">
              <span className="min-w-24 flex-1">
                <span className="font-medium">{t(slot)}</span>{' '}
                <span className="text-sm text-muted-foreground">· {t(DOSE_STATE[state])}</span>
              </span>
              <span className="flex items-center gap-2">
                {MARKS.map(({ status, text, Icon, variant }) => (
                  <Button
                    key={status}
                    type="button"
                    size="sm"
                    variant={variant}
                    aria-pressed={state === status}
                    disabled={mark.isPending}
                    aria-label={
                      status === 'taken'
                        ? t('Mark {medication} {slot} taken on {day}', names)
                        : t('Mark {medication} {slot} skipped on {day}', names)
                    }
                    onClick={() =>
                      mark.mutate({ medication_id: medication.id, day: shown.day, slot, status })
                    }
                  >
                    <Icon aria-hidden="true" />
                    {t(text)}
                  </Button>
                ))}
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

export function AdherenceSummary({
  medication,
}: {
  medication: {
    id: string;
    medication_name: string;
    user_id: string;
    family_member_id?: string | null;
  };
}) {
  const { t } = useTranslation();
  const adherence = useAdherence(medication.id);
  const { canChange } = useRecordOwnership()(medication);
  if (!adherence.data) return <span className="text-muted-foreground">…</span>;
  const { ratio, taken, skipped, missed, not_tracked, tracked_from, strip } = adherence.data;
  const due = taken + skipped + missed;
  return (
    <div className="space-y-2">
      <p>
        {ratio === null ? (
          t('No doses due yet')
        ) : (
          <>
            <span className="font-semibold">
              {formatNumber(Math.round(ratio * 100) / 100, { style: 'percent' })}
            </span>{' '}
            <span className="text-muted-foreground">
              ({t('{taken} of {count} doses taken', { taken: formatNumber(taken), count: due })}
              {skipped ? t(', {n} skipped', { n: formatNumber(skipped) }) : ''}
              {missed ? t(', {n} missed', { n: formatNumber(missed) }) : ''})
            </span>
          </>
        )}
      </p>
      {not_tracked > 0 ? (
        <p className="text-sm text-muted-foreground">
          {t('Not tracked before {date}, when it was added: {count} doses left out.', {
            date: formatDate(tracked_from, 'MMM d'),
            count: not_tracked,
          })}
        </p>
      ) : null}
      <ol className="flex gap-1" aria-label={t('The last 14 days')}>
        {strip.map(({ day, status }) => (
          <li
            key={day}
            className={cn('h-5 flex-1 rounded-sm', STRIP[status].className)}
            title={t('{day}: {status}', { day: dayName(day), status: t(STRIP[status].label) })}
          >
            <span className="sr-only">
              {t('{day}: {status}', { day: dayName(day), status: t(STRIP[status].label) })}
            </span>
          </li>
        ))}
      </ol>
      <p
        className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-muted-foreground"
        aria-hidden="true"
      >
        <span>{t('Last 14 days:')}</span>
        {LEGEND.map((status) => (
          <span key={status} className="inline-flex items-center gap-1">
            <span className={cn('size-2.5 rounded-sm', STRIP[status].className)} />
            {t(STRIP[status].label)}
          </span>
        ))}
      </p>
      {canChange ? <PastDoses medication={medication} strip={strip} /> : null}
    </div>
  );
}
