/**
 * The 'Reminders' section's other channels (CONTRACT.md §6 'Notifications'): the account's
 * 'ntfy Topic URL' and 'Webhook URL', each with 'Send Test' (which saves a changed URL first
 * and says what happened), the webhook's signing secret (shown once, made anew on request),
 * and the delivery log. The webhook's payload and signature: docs/notification-channels.md.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { key } from '../../../shared/i18n/translate';
import { formatDate } from '../../../shared/dates';
import {
  NOTIFICATION_CHANNELS,
  type ChannelDelivery,
  type NotificationChannel,
  type NotificationChannelsState,
} from '../../../shared/notification-channels';
import { Button } from '../../components/ui/button';
import { CopyButton } from '../../components/ui/copy-button';
import { Input, Label } from '../../components/ui/input';
import { ChannelConfirmations } from './channel-confirmations';
import { notificationChannelsApi } from './notification-channels-api';
import { useChannelForm, type ChannelFormProps } from './use-channel-form';

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

function ChannelForm(props: ChannelFormProps) {
  const { channel, saved } = props;
  const id = useId();
  const { t } = useTranslation();
  const form = useChannelForm(props);
  const { label, outcome, save, test, busy } = form;
  const text = CHANNEL_TEXT[channel];
  const name = channelName(channel, t);

  return (
    <fieldset className="grid min-w-0 gap-2">
      <legend className="sr-only">{name}</legend>
      <form className="grid min-w-0 gap-2" onSubmit={form.submit} noValidate>
        <Label htmlFor={id}>{label}</Label>
        <Input
          id={id}
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder={text.example}
          value={form.url}
          onChange={(e) => form.setUrl(e.target.value)}
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
            <Button type="button" variant="outline" onClick={() => form.setRenewing(true)}>
              {t('New Signing Secret')}
            </Button>
          ) : null}
          {saved !== null ? (
            <Button type="button" variant="outline" onClick={() => form.setRemoving(true)}>
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
      <ChannelConfirmations channel={channel} form={form} />
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
