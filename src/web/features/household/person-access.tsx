/**
 * On a person's card (/profiles): who else has access to them, each with 'Remove access for
 * {email}', and 'Share access to {name}'.
 */
import { Share2, UserMinus } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DAY_GROUP_FORMAT, formatDate } from '../../../shared/dates';
import { GRANT_ROLE_LABELS, type Grant } from '../../../shared/household';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { showError, showSuccess } from '../../lib/toast';
import { useHousehold, useRemoveAccess } from './household-queries';
import { ShareAccessDialog } from './share-access-dialog';

export function PersonAccess({ person }: { person: { id: string; name: string } }) {
  const { t } = useTranslation();
  const household = useHousehold();
  const remove = useRemoveAccess();
  const [sharing, setSharing] = useState<{ grant?: Grant } | undefined>();
  const [removing, setRemoving] = useState<Grant | undefined>();
  const grants = (household.data?.given ?? []).filter((grant) => grant.personId === person.id);

  const confirmRemove = async () => {
    if (!removing) return;
    try {
      await remove.mutateAsync(removing.id);
      showSuccess(
        t('{email} no longer has access to {name}', { email: removing.email, name: person.name }),
      );
      setRemoving(undefined);
    } catch (error) {
      showError(t('Could not remove access'), error);
    }
  };

  return (
    <div className="mt-3 border-t border-border pt-3">
      {grants.length ? (
        <ul
          className="mb-3 space-y-2"
          aria-label={t('People with access to {name}', { name: person.name })}
        >
          {grants.map((grant) => (
            <li key={grant.id} className="flex items-center gap-2">
              <button
                type="button"
                className="min-w-0 flex-1 rounded-lg text-start hover:bg-surface-muted focus-visible:outline-2"
                onClick={() => setSharing({ grant })}
                aria-label={t('Change access for {email}', { email: grant.email })}
              >
                <span className="block truncate text-sm font-medium">{grant.email}</span>
                <span className="block text-xs text-muted-foreground">
                  {grant.status === 'accepted'
                    ? t('Accepted by {name}', { name: grant.acceptedBy ?? '' })
                    : t('Pending')}
                  {' · '}
                  {t(GRANT_ROLE_LABELS[grant.role])}
                  {grant.allowExport ? ` · ${t('may share and export')}` : ''}
                  {grant.alertAfterMinutes !== null
                    ? ` · ${t('alerted of a missed dose after {count} minutes', {
                        count: grant.alertAfterMinutes,
                      })}`
                    : ''}
                  {grant.accessEnds
                    ? ` · ${t('Access ends {date}', {
                        date: formatDate(grant.accessEnds, DAY_GROUP_FORMAT),
                      })}`
                    : ''}
                </span>
              </button>
              <Button
                variant="ghost-destructive"
                size="icon"
                aria-label={t('Remove access for {email}', { email: grant.email })}
                onClick={() => setRemoving(grant)}
              >
                <UserMinus aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      <Button
        variant="outline"
        size="sm"
        aria-label={t('Share access to {name}', { name: person.name })}
        onClick={() => setSharing({})}
      >
        <Share2 aria-hidden="true" />
        {t('Share access')}
      </Button>
      <ShareAccessDialog
        open={sharing !== undefined}
        onOpenChange={(open) => (open ? null : setSharing(undefined))}
        person={person}
        grant={sharing?.grant}
      />
      <ConfirmDialog
        open={removing !== undefined}
        onOpenChange={(open) => (open ? null : setRemoving(undefined))}
        title={t('Remove access for {email}?', { email: removing?.email ?? '' })}
        description={t(
          "{email} will no longer see {name}'s records, from their very next step. What they added stays yours.",
          { email: removing?.email ?? '', name: person.name },
        )}
        // Every confirming button's name starts with 'Delete' (CONTRACT §2).
        confirmLabel={t('Delete access')}
        pendingLabel={t('Removing...')}
        pending={remove.isPending}
        onConfirm={confirmRemove}
      />
    </div>
  );
}
