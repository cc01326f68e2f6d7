/**
 * /profiles: the user ('You') and their family members, to add, update and delete, each
 * with who else has access to them; then the persons others shared with the user.
 */
import { Cake, LineChart, Pencil, Trash2, UserPlus, Users } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DAY_GROUP_FORMAT, formatDate, localToday } from '../../../shared/dates';
import { MEMBER_DELETION_LIST, type FamilyMember } from '../../../shared/family-members';
import { hasGrowthCharts } from '../../../shared/growth/charts';
import { toasts } from '../../../shared/messages';
import { PersonAvatar } from '../../components/person-avatar';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { EmptyState, Loading } from '../../components/ui/feedback';
import { showError, showSuccess } from '../../lib/toast';
import { useSession } from '../auth/session';
import { EmergencyCardLink } from '../emergency-card/emergency-card-link';
import { PersonAccess } from '../household/person-access';
import { SharedWithYou } from '../household/shared-with-you';
import { HeaderAction, PageHeader } from '../shell/page-header';
import { useDeleteFamilyMember, useFamilyMembers } from './family-member-queries';
import { MemberDialog } from './member-dialog';

/** The user's own card, titled 'You': the person they keep records for first. */
function YouCard({ user }: { user: { id: string; name: string; email: string } }) {
  const { t } = useTranslation();
  return (
    <Card className="overflow-hidden p-4">
      <div className="flex items-center gap-4">
        <PersonAvatar name={user.name} color="var(--primary)" />
        <div className="min-w-0 flex-1">
          <h2 className="truncate font-semibold">{t('You')}</h2>
          <p className="text-sm break-words text-muted-foreground">{user.name}</p>
          <EmergencyCardLink personId={user.id} />
        </div>
      </div>
      <PersonAccess person={{ id: user.id, name: user.name }} />
    </Card>
  );
}

function MemberCard({
  member,
  onEdit,
  onDelete,
}: {
  member: FamilyMember;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Card className="overflow-hidden p-4">
      {/* On a narrow phone the buttons wrap below, so that a long name keeps its width. */}
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
        <PersonAvatar name={member.name} color={member.color} />
        <div className="min-w-32 flex-1">
          <h2 className="font-semibold break-words">{member.name}</h2>
          <p className="flex items-center gap-1.5 text-sm text-muted-foreground">
            {member.date_of_birth ? (
              <>
                <Cake className="size-4" aria-hidden="true" />
                <span>
                  {t('Born {date}', { date: formatDate(member.date_of_birth, DAY_GROUP_FORMAT) })}
                </span>
              </>
            ) : (
              t('No date of birth')
            )}
          </p>
          <div className="flex flex-wrap gap-x-4">
            {hasGrowthCharts(member, localToday()) ? (
              <Link
                to={`/growth?person=${encodeURIComponent(member.id)}`}
                className="mt-1 inline-flex items-center gap-1.5 text-sm font-medium text-primary underline-offset-4 hover:underline"
              >
                <LineChart className="size-4" aria-hidden="true" />
                {t('Growth chart')}
              </Link>
            ) : null}
            <EmergencyCardLink personId={member.id} />
          </div>
        </div>
        <div className="ml-auto flex">
          <Button
            variant="ghost"
            size="icon"
            aria-label={t('Edit {name}', { name: member.name })}
            onClick={onEdit}
          >
            <Pencil aria-hidden="true" />
          </Button>
          <Button
            variant="ghost-destructive"
            size="icon"
            aria-label={t('Delete {name}', { name: member.name })}
            onClick={onDelete}
          >
            <Trash2 aria-hidden="true" />
          </Button>
        </div>
      </div>
      <PersonAccess person={{ id: member.id, name: member.name }} />
    </Card>
  );
}

export function ProfilesPage() {
  const { t } = useTranslation();
  const members = useFamilyMembers();
  const user = useSession().data?.user;
  const remove = useDeleteFamilyMember();
  const [dialogOpen, setDialogOpen] = useState(false);
  const [editing, setEditing] = useState<FamilyMember | undefined>();
  const [deleting, setDeleting] = useState<FamilyMember | undefined>();

  useEffect(() => {
    if (members.error) showError(t(toasts.loadProfilesError), members.error);
  }, [members.error, t]);

  const openAdd = () => {
    setEditing(undefined);
    setDialogOpen(true);
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      showSuccess(t(toasts.memberDeleted));
      setDeleting(undefined);
    } catch (error) {
      showError(t(toasts.error), error);
    }
  };

  return (
    <>
      <PageHeader
        title={t('Family Profiles')}
        subtitle={t('The people you keep records for')}
        backTo="/"
        actions={<HeaderAction label={t('Add Family Member')} icon={UserPlus} onClick={openAdd} />}
      />
      {user ? (
        <div className="mb-3">
          <YouCard user={user} />
        </div>
      ) : null}
      {members.isPending ? (
        <Loading />
      ) : members.data && members.data.length > 0 ? (
        <ul className="space-y-3">
          {members.data.map((member) => (
            <li key={member.id}>
              <MemberCard
                member={member}
                onEdit={() => {
                  setEditing(member);
                  setDialogOpen(true);
                }}
                onDelete={() => setDeleting(member)}
              />
            </li>
          ))}
        </ul>
      ) : members.isError ? null : (
        <EmptyState icon={Users} title={t('No family members yet')}>
          <p className="text-sm text-muted-foreground">
            {t('Add the people you look after to keep their records apart.')}
          </p>
        </EmptyState>
      )}
      <SharedWithYou />
      <MemberDialog open={dialogOpen} onOpenChange={setDialogOpen} member={editing} />
      <ConfirmDialog
        open={deleting !== undefined}
        onOpenChange={(open) => (open ? null : setDeleting(undefined))}
        title={t('Delete {name}?', { name: deleting?.name ?? t('family member') })}
        description={
          <>
            <p>
              {t('This permanently removes {name} and all of their data:', {
                name: deleting?.name ?? '',
              })}
            </p>
            <ul className="mt-2 list-disc space-y-0.5 ps-5">
              {MEMBER_DELETION_LIST.map((item) => (
                <li key={item}>{t(item)}</li>
              ))}
            </ul>
            <p className="mt-2">{t('This action cannot be undone.')}</p>
          </>
        }
        confirmLabel={t('Delete Member')}
        pending={remove.isPending}
        onConfirm={confirmDelete}
      />
    </>
  );
}

export default ProfilesPage;
