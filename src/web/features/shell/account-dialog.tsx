/**
 * The Account dialog behind the avatar: User Profile, Family Members, Logout and Delete
 * Account (which asks first, and for the password). It loads when first wanted (see
 * account-button.tsx): every screen has the avatar, few open it.
 */
import { ChevronRight, LogOut, Trash2, UserRound, Users } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { useSignOut } from '../auth/session';
import { DeleteAccountDialog } from './delete-account-dialog';
import { useProfile } from '../profile-settings/profile-queries';

const rowClass =
  'flex min-h-12 w-full items-center gap-3 rounded-xl px-3 text-start font-medium transition-colors hover:bg-surface-muted';

export function AccountDialog({
  open,
  onOpenChange: setOpen,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const profile = useProfile();
  const logout = useSignOut();

  const fullName = profile.data?.full_name;
  return (
    <>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent
          title={t('Account')}
          description={profile.data ? `${fullName} · ${profile.data.email}` : undefined}
        >
          <nav aria-label={t('Account')} className="space-y-1">
            <Link to="/profile-settings" className={rowClass} onClick={() => setOpen(false)}>
              <UserRound className="size-5 text-primary" aria-hidden="true" />
              <span className="flex-1">{t('User Profile')}</span>
              <ChevronRight className="size-4 text-muted-foreground" aria-hidden="true" />
            </Link>
            <Link to="/profiles" className={rowClass} onClick={() => setOpen(false)}>
              <Users className="size-5 text-primary" aria-hidden="true" />
              <span className="flex-1">{t('Family Members')}</span>
              <ChevronRight className="size-4 text-muted-foreground" aria-hidden="true" />
            </Link>
            <button
              type="button"
              className={rowClass}
              onClick={() => logout.mutate()}
              disabled={logout.isPending}
            >
              <LogOut className="size-5 text-muted-foreground" aria-hidden="true" />
              <span className="flex-1">{t('Logout')}</span>
            </button>
            <div className="my-2 border-t border-border" />
            <button
              type="button"
              className={`${rowClass} text-destructive`}
              onClick={() => {
                // The confirm takes the account dialog's place.
                setOpen(false);
                setConfirming(true);
              }}
            >
              <Trash2 className="size-5" aria-hidden="true" />
              <span className="flex-1">{t('Delete Account')}</span>
            </button>
          </nav>
        </DialogContent>
      </Dialog>
      <DeleteAccountDialog open={confirming} onOpenChange={setConfirming} />
    </>
  );
}
