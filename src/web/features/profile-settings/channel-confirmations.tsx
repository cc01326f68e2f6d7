/**
 * What a channel's form asks before it acts: 'Remove' (reminders stop going to the ntfy
 * topic or the webhook) and, for the webhook, a new signing secret (the old one stops
 * working at once).
 */
import { useTranslation } from 'react-i18next';
import type { NotificationChannel } from '../../../shared/notification-channels';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import type { ChannelFormState } from './use-channel-form';

export function ChannelConfirmations({
  channel,
  form,
}: {
  channel: NotificationChannel;
  form: ChannelFormState;
}) {
  const { t } = useTranslation();
  return (
    <>
      <ConfirmDialog
        open={form.removing}
        onOpenChange={form.setRemoving}
        title={
          channel === 'ntfy'
            ? t('Stop sending reminders to this ntfy topic?')
            : t('Stop sending reminders to this webhook?')
        }
        description={t('Reminders still go to your devices and by email as you chose above.')}
        confirmLabel={t('Remove')}
        pendingLabel={t('Removing...')}
        pending={form.remove.isPending}
        onConfirm={() => form.remove.mutate()}
      />
      <ConfirmDialog
        open={form.renewing}
        onOpenChange={form.setRenewing}
        title={t('Make a new signing secret?')}
        description={t(
          'The old secret stops working at once: the receiver refuses reminders until you give it the new one.',
        )}
        confirmLabel={t('Make New Secret')}
        pendingLabel={t('Making...')}
        pending={form.renew.isPending}
        onConfirm={() => form.renew.mutate()}
      />
    </>
  );
}
