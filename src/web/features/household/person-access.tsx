/**
 * On a person's card (/profiles): who else has access to them, each with 'Remove access for
 * {email}', and 'Share access to {name}'.
 */
import { Share2, UserMinus } from 'lucide-react';
import { useState } from 'react';
import { DAY_GROUP_FORMAT, formatDate } from '../../../shared/dates';
import { GRANT_ROLE_LABELS, type Grant } from '../../../shared/household';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { showError, showSuccess } from '../../lib/toast';
import { useHousehold, useRemoveAccess } from './household-queries';
import { ShareAccessDialog } from './share-access-dialog';

export function PersonAccess({ person }: { person: { id: string; name: string } }) {
  const household = useHousehold();
  const remove = useRemoveAccess();
  const [sharing, setSharing] = useState<{ grant?: Grant } | undefined>();
  const [removing, setRemoving] = useState<Grant | undefined>();
  const grants = (household.data?.given ?? []).filter((grant) => grant.personId === person.id);

  const confirmRemove = async () => {
    if (!removing) return;
    try {
      await remove.mutateAsync(removing.id);
      showSuccess(`${removing.email} no longer has access to ${person.name}`);
      setRemoving(undefined);
    } catch (error) {
      showError('Could not remove access', error);
    }
  };

  return (
    <div className="mt-3 border-t border-border pt-3">
      {grants.length ? (
        <ul className="mb-3 space-y-2" aria-label={`People with access to ${person.name}`}>
          {grants.map((grant) => (
            <li key={grant.id} className="flex items-center gap-2">
              <button
                type="button"
                className="min-w-0 flex-1 rounded-lg text-left hover:bg-surface-muted focus-visible:outline-2"
                onClick={() => setSharing({ grant })}
                aria-label={`Change access for ${grant.email}`}
              >
                <span className="block truncate text-sm font-medium">{grant.email}</span>
                <span className="block text-xs text-muted-foreground">
                  {grant.status === 'accepted'
                    ? `Accepted by ${grant.acceptedBy ?? ''}`
                    : 'Pending'}
                  {' · '}
                  {GRANT_ROLE_LABELS[grant.role]}
                  {grant.allowExport ? ' · may share and export' : ''}
                  {grant.alertAfterMinutes !== null
                    ? ` · alerted of a missed dose after ${grant.alertAfterMinutes} minutes`
                    : ''}
                  {grant.accessEnds
                    ? ` · Access ends ${formatDate(grant.accessEnds, DAY_GROUP_FORMAT)}`
                    : ''}
                </span>
              </button>
              <Button
                variant="ghost"
                size="icon"
                className="text-destructive hover:bg-destructive-soft"
                aria-label={`Remove access for ${grant.email}`}
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
        aria-label={`Share access to ${person.name}`}
        onClick={() => setSharing({})}
      >
        <Share2 aria-hidden="true" />
        Share access
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
        title={`Remove access for ${removing?.email ?? ''}?`}
        description={`${removing?.email ?? ''} will no longer see ${person.name}'s records, from their very next step. What they added stays yours.`}
        // Every confirming button's name starts with 'Delete' (CONTRACT §2).
        confirmLabel="Delete access"
        pendingLabel="Removing..."
        pending={remove.isPending}
        onConfirm={confirmRemove}
      />
    </div>
  );
}
