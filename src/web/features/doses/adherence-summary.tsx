/**
 * 'Adherence (30 days)' on a medication's detail: taken ÷ due over the last 30 days (a
 * dose whose day is over and was never marked counts as missed), and the last 14 days as a
 * strip of days, each named for screen readers.
 */
import type { StripDay } from '../../../shared/doses';
import { formatDate } from '../../../shared/dates';
import { cn } from '../../lib/cn';
import { useAdherence } from './dose-queries';

const STRIP: Record<StripDay, { label: string; className: string }> = {
  taken: { label: 'all taken', className: 'bg-primary' },
  partly: { label: 'partly taken', className: 'bg-primary/45' },
  skipped: { label: 'skipped', className: 'bg-amber-400' },
  missed: { label: 'missed', className: 'bg-destructive/70' },
  due: { label: 'still due', className: 'border border-primary bg-transparent' },
  none: { label: 'nothing due', className: 'bg-border' },
};

export function AdherenceSummary({ medicationId }: { medicationId: string }) {
  const adherence = useAdherence(medicationId);
  if (!adherence.data) return <span className="text-muted-foreground">…</span>;
  const { ratio, taken, skipped, missed, strip } = adherence.data;
  const due = taken + skipped + missed;
  return (
    <div className="space-y-2">
      <p>
        {ratio === null ? (
          'No doses due yet'
        ) : (
          <>
            <span className="font-semibold">{Math.round(ratio * 100)}%</span>{' '}
            <span className="text-muted-foreground">
              ({taken} of {due} {due === 1 ? 'dose' : 'doses'} taken
              {skipped ? `, ${skipped} skipped` : ''}
              {missed ? `, ${missed} missed` : ''})
            </span>
          </>
        )}
      </p>
      <ol className="flex gap-1" aria-label="The last 14 days">
        {strip.map(({ day, status }) => (
          <li
            key={day}
            className={cn('h-5 flex-1 rounded-sm', STRIP[status].className)}
            title={`${formatDate(day, 'MMM d')}: ${STRIP[status].label}`}
          >
            <span className="sr-only">{`${formatDate(day, 'MMM d')}: ${STRIP[status].label}`}</span>
          </li>
        ))}
      </ol>
      <p
        className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-muted-foreground"
        aria-hidden="true"
      >
        <span>Last 14 days:</span>
        {(['taken', 'partly', 'skipped', 'missed'] as const).map((status) => (
          <span key={status} className="inline-flex items-center gap-1">
            <span className={cn('size-2.5 rounded-sm', STRIP[status].className)} />
            {STRIP[status].label}
          </span>
        ))}
      </p>
    </div>
  );
}
