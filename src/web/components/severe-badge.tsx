/**
 * 'Severe', where a severe allergy is named (the allergy list and detail, the share link
 * viewer): a warning icon and the word in bold on a strong red, so that it stands out by
 * shape and words as well as colour, and a screen reader hears it as emphasis.
 */
import { TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';

export function SevereBadge() {
  const { t } = useTranslation();
  return (
    <strong className="inline-flex items-center gap-1 rounded-full bg-destructive px-2 py-0.5 text-xs font-bold text-destructive-foreground">
      <TriangleAlert className="size-3.5 shrink-0" aria-hidden="true" />
      {t('Severe')}
    </strong>
  );
}
