/**
 * The avatar that opens the Account dialog. The dialog, and the dialog machinery and the
 * account deletion's checks with it, loads when first wanted: as a hand or the focus
 * reaches the avatar, so it is there by the time it is pressed.
 */
import { Suspense, useState } from 'react';
import { lazyPart } from '../../lib/when-reachable';
import { useTranslation } from 'react-i18next';
import { initials } from '../../../shared/names';
import { useProfile } from '../profile-settings/profile-queries';

const loadAccountDialog = () => import('./account-dialog');
const AccountDialog = lazyPart(() =>
  loadAccountDialog().then((module) => ({ default: module.AccountDialog })),
);

export function AccountButton() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const profile = useProfile();
  const prefetch = () => void loadAccountDialog();
  return (
    <>
      <button
        type="button"
        aria-label={t('Account')}
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
        onPointerEnter={prefetch}
        onPointerDown={prefetch}
        onFocus={prefetch}
        className="flex size-11 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-bold text-primary-foreground shadow-sm ring-2 ring-surface transition-transform hover:scale-105"
      >
        <span aria-hidden="true">{initials(profile.data?.full_name)}</span>
      </button>
      {wanted ? (
        <Suspense fallback={null}>
          <AccountDialog open={open} onOpenChange={setOpen} />
        </Suspense>
      ) : null}
    </>
  );
}
