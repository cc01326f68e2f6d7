/** 'Emergency Card' on a person's card on /profiles: the way to their emergency card. */
import { Siren } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SCREENS } from '../../../shared/screen-paths';

export const emergencyCardScreen = (personId: string) =>
  SCREENS.emergencyCard.replace(':id', encodeURIComponent(personId));

export function EmergencyCardLink({ personId }: { personId: string }) {
  const { t } = useTranslation();
  return (
    <Link
      to={emergencyCardScreen(personId)}
      className="mt-1 inline-flex min-h-6 items-center gap-1.5 text-sm font-medium text-primary underline-offset-4 hover:underline"
    >
      <Siren className="size-4" aria-hidden="true" />
      {t('Emergency Card')}
    </Link>
  );
}
