/**
 * 'Share Access' (CONTRACT.md §4 Household): another account's Email, a Role (Viewer or
 * Editor), an optional last day ('Access Ends'), whether sharing and export are allowed, and
 * whether to 'Alert when a dose is missed' after some minutes (CONTRACT §6 'Notifications').
 * Granting again for an email that has access changes that access. A new grant (or one not
 * yet accepted) answers with its one-time Acceptance Code, which the dialog then shows for
 * the owner to pass on: the grant gives nothing until that email's account enters it.
 */
import { useTranslation } from 'react-i18next';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { AcceptanceCode, ShareAccessForm } from './share-access-form';
import { useShareAccess, type ShareAccessProps } from './use-share-access';

export function ShareAccessDialog(props: ShareAccessProps) {
  const { open, onOpenChange, person, grant } = props;
  const { t } = useTranslation();
  const access = useShareAccess(props);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={t('Share Access')}
        description={t("Let another account on this server see or keep {name}'s records.", {
          name: person.name,
        })}
      >
        {access.issued ? (
          <AcceptanceCode
            issued={access.issued}
            person={person}
            onDone={() => onOpenChange(false)}
          />
        ) : (
          <ShareAccessForm person={person} grant={grant} access={access} />
        )}
      </DialogContent>
    </Dialog>
  );
}
