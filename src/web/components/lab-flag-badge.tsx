/**
 * 'High', 'Low' or 'Normal' beside a lab result (the list, the detail, the timeline, the
 * share link viewer): out of range in bold with an arrow, so that it stands out by shape and
 * words as well as colour; in range, a quiet pill.
 */
import { ArrowDown, ArrowUp } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { LabFlag } from '../../shared/labs/lab-flag';

export function LabFlagBadge({ flag }: { flag: LabFlag | string | null | undefined }) {
  const { t } = useTranslation();
  if (flag === 'High' || flag === 'Low') {
    const Arrow = flag === 'High' ? ArrowUp : ArrowDown;
    return (
      <strong className="inline-flex items-center gap-1 rounded-full bg-destructive px-2 py-0.5 text-xs font-bold text-destructive-foreground">
        <Arrow className="size-3.5 shrink-0" aria-hidden="true" />
        {flag === 'High' ? t('High') : t('Low')}
      </strong>
    );
  }
  if (flag === 'Normal') {
    return (
      <span className="inline-flex items-center rounded-full bg-primary-soft px-2 py-0.5 text-xs font-semibold text-primary">
        {t('Normal')}
      </span>
    );
  }
  return null;
}
