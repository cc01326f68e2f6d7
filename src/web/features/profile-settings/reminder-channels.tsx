/**
 * The 'Reminders' section's other channels (CONTRACT.md §6 'Notifications'): the account's
 * 'ntfy Topic URL' and 'Webhook URL', each with 'Send Test' (which saves a changed URL first
 * and says what happened), the webhook's signing secret (shown once, made anew on request),
 * and the delivery log. The webhook's payload and signature: docs/notification-channels.md.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { key } from '../../../shared/i18n/translate';
import { formatDate } from '../../../shared/dates';
import { toasts } from '../../../shared/messages';
import {
  CHANNEL_LABELS,
  channelUrlSchema,
  NOTIFICATION_CHANNELS,
  type ChannelDelivery,
  type NotificationChannel,
  type NotificationChannelsState,
} from '../../../shared/notification-channels';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { CopyButton } from '../../components/ui/copy-button';
import { Input, Label } from '../../components/ui/input';
import { notificationChannelsApi } from './notification-channels-api';
import { showError, showSuccess } from '../../lib/toast';
import { parseOrShowError } from '../../lib/validate';

const CHANNELS_KEY = ['notification-channels'] as const;

/**
 * Each channel's group name and what its field is for. 'ntfy' is the service's own name, the
 * same in every language (`translated: false`); the other words are keys for `t`.
 */
const CHANNEL_TEXT: Record<
  NotificationChannel,
  { name: string; translated: boolean; hint: string; example: string }
> = {
  ntfy: {
    name: 'ntfy',
    translated: false,
    hint: key(
      'Reminders as ntfy notifications; a dose reminder has ‘Taken’ and ‘Skip’ buttons. A password or access token goes in the URL (https://user:token@ntfy.example.com/topic).',
    ),
    example: 'https://ntfy.sh/your-family-reminders',
  },
  webhook: {
    name: key('Webhook'),
    translated: true,
    hint: key(
      'Reminders POSTed as JSON, signed with a secret of your own (the X-Kin-Signature header).',
    ),
    example: 'https://automations.example.com/hooks/kin',
  },
};

/** A channel's name as the page shows it. */
function channelName(channel: NotificationChannel, t: (text: string) => string): string {
  const { name, translated } = CHANNEL_TEXT[channel];
  return translated ? t(name) : name;
}

const OUTCOME_WORDS: Record<ChannelDelivery['outcome'], string> = {
  sent: key('Sent'),
  retried: key('Failed, will retry'),
  failed: key('Failed'),
};

export function ReminderChannels() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const state = useQuery({ queryKey: CHANNELS_KEY, queryFn: notificationChannelsApi.get });
  const [secret, setSecret] = useState<string | null>(null);
  const stored = (next: NotificationChannelsState) => queryClient.setQueryData(CHANNELS_KEY, next);

  return (
    <div className="mt-6 grid gap-5 border-t pt-5">
      <div>
        <h3 className="font-semibold">{t('Other channels')}</h3>
        <p className="text-sm text-muted-foreground">
          {t(
            'The same reminders, for every device, through ntfy or a webhook of your own. ‘Hide names on the lock screen’ applies to them too.',
          )}
        </p>
      </div>
      {NOTIFICATION_CHANNELS.map((channel) => (
        <ChannelForm
          key={channel}
          channel={channel}
          saved={state.data?.[channel]?.url ?? null}
          loading={!state.data}
          onStored={stored}
          onSecret={setSecret}
        />
      ))}
      {secret ? (
        <div className="grid gap-1.5" role="status">
          <Label htmlFor="webhook-secret">{t('Signing Secret')}</Label>
          <Input id="webhook-secret" readOnly value={secret} onFocus={(e) => e.target.select()} />
          <p className="text-sm text-muted-foreground">
            {t(
              'Shown only now: give it to the webhook’s receiver, which checks each request’s signature with it.',
            )}
          </p>
          <div>
            <CopyButton text={secret} label={t('Copy Secret')} />
          </div>
        </div>
      ) : null}
      <DeliveryLog deliveries={state.data?.deliveries ?? []} />
    </div>
  );
}

function ChannelForm({
  channel,
  saved,
  loading,
  onStored,
  onSecret,
}: {
  channel: NotificationChannel;
  saved: string | null;
  loading: boolean;
  onStored: (state: NotificationChannelsState) => void;
  onSecret: (secret: string | null) => void;
}) {
  const id = useId();
  const { t } = useTranslation();
  const label = t(CHANNEL_LABELS[channel]);
  const text = CHANNEL_TEXT[channel];
  const name = channelName(channel, t);
  const [url, setUrl] = useState('');
  const [outcome, setOutcome] = useState<{ sent: boolean; message: string } | null>(null);
  const [removing, setRemoving] = useState(false);
  const [renewing, setRenewing] = useState(false);
  useEffect(() => {
    if (saved !== null) setUrl(saved);
  }, [saved]);

  /** Saves the URL as typed (when it changed); the new state, or null when refused. */
  async function saveTyped(): Promise<boolean> {
    const input = parseOrShowError(channelUrlSchema(channel), { url }, t(toasts.error));
    if (!input) return false;
    if (input.url === saved) return true;
    if (channel === 'ntfy') {
      onStored(await notificationChannelsApi.saveNtfy(input.url));
    } else {
      const answer = await notificationChannelsApi.saveWebhook(input.url);
      onStored(answer.state);
      if (answer.secret) onSecret(answer.secret);
    }
    return true;
  }

  const save = useMutation({
    mutationFn: saveTyped,
    onSuccess: (done) => done && showSuccess(t('{label} saved', { label })),
    onError: (error) => showError(t(toasts.error), error),
  });
  const test = useMutation({
    mutationFn: async () => {
      if (!(await saveTyped())) return null;
      return notificationChannelsApi.test(channel);
    },
    onSuccess: (answer) => {
      if (!answer) return;
      onStored(answer.state);
      setOutcome({ sent: answer.sent, message: answer.message });
    },
    onError: (error) => showError(t(toasts.error), error),
  });
  const remove = useMutation({
    mutationFn: () => notificationChannelsApi.remove(channel),
    onSuccess: (next) => {
      onStored(next);
      setUrl('');
      setOutcome(null);
      setRemoving(false);
      if (channel === 'webhook') onSecret(null);
    },
    onError: (error) => showError(t(toasts.error), error),
  });
  const renew = useMutation({
    mutationFn: notificationChannelsApi.newWebhookSecret,
    onSuccess: (answer) => {
      onStored(answer.state);
      onSecret(answer.secret ?? null);
      setRenewing(false);
    },
    onError: (error) => showError(t(toasts.error), error),
  });
  const busy = loading || save.isPending || test.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };

  return (
    <fieldset className="grid min-w-0 gap-2">
      <legend className="sr-only">{name}</legend>
      <form className="grid min-w-0 gap-2" onSubmit={submit} noValidate>
        <Label htmlFor={id}>{label}</Label>
        <Input
          id={id}
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder={text.example}
          value={url}
          onChange={(e) => setUrl(e.target.value)}
        />
        <p className="text-sm wrap-anywhere text-muted-foreground">{t(text.hint)}</p>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" variant="outline" disabled={busy}>
            {save.isPending ? t('Saving...') : t('Save')}
          </Button>
          <Button type="button" variant="outline" disabled={busy} onClick={() => test.mutate()}>
            {test.isPending ? t('Sending...') : t('Send Test')}
          </Button>
          {saved !== null && channel === 'webhook' ? (
            <Button type="button" variant="outline" onClick={() => setRenewing(true)}>
              {t('New Signing Secret')}
            </Button>
          ) : null}
          {saved !== null ? (
            <Button type="button" variant="outline" onClick={() => setRemoving(true)}>
              {t('Remove')}
            </Button>
          ) : null}
        </div>
      </form>
      {outcome ? (
        <p
          role="status"
          className={outcome.sent ? 'text-sm' : 'text-sm text-destructive'}
          aria-label={t('{name} test', { name })}
        >
          {outcome.message}
        </p>
      ) : null}
      <ConfirmDialog
        open={removing}
        onOpenChange={setRemoving}
        title={
          channel === 'ntfy'
            ? t('Stop sending reminders to this ntfy topic?')
            : t('Stop sending reminders to this webhook?')
        }
        description={t('Reminders still go to your devices and by email as you chose above.')}
        confirmLabel={t('Remove')}
        pendingLabel={t('Removing...')}
        pending={remove.isPending}
        onConfirm={() => remove.mutate()}
      />
      <ConfirmDialog
        open={renewing}
        onOpenChange={setRenewing}
        title={t('Make a new signing secret?')}
        description={t(
          'The old secret stops working at once: the receiver refuses reminders until you give it the new one.',
        )}
        confirmLabel={t('Make New Secret')}
        pendingLabel={t('Making...')}
        pending={renew.isPending}
        onConfirm={() => renew.mutate()}
      />
    </fieldset>
  );
}

function DeliveryLog({ deliveries }: { deliveries: ChannelDelivery[] }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="delivery-log">
      <h3 id="delivery-log" className="font-semibold">
        {t('Delivery Log')}
      </h3>
      {deliveries.length === 0 ? (
        <p className="text-sm text-muted-foreground">{t('Nothing sent to these channels yet.')}</p>
      ) : (
        <ul className="mt-2 grid gap-2 text-sm">
          {deliveries.map((delivery) => (
            <li key={delivery.id} className="rounded-xl border px-3 py-2">
              <span
                className={
                  delivery.outcome === 'sent' ? 'font-medium' : 'font-medium text-destructive'
                }
              >
                {t(OUTCOME_WORDS[delivery.outcome])}
              </span>
              {' · '}
              {channelName(delivery.channel, t)} · {delivery.what} ·{' '}
              <time dateTime={delivery.created_at}>
                {formatDate(delivery.created_at, 'MMM d, h:mm a')}
              </time>
              <span className="block text-muted-foreground">{delivery.detail}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
