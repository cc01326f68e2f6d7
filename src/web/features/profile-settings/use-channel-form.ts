/**
 * What one channel's form in 'Other channels' does, apart from how it looks: its URL as
 * saved until typed over, 'Save' and 'Send Test' (which saves a changed URL first and keeps
 * what the test answered), 'Remove' and the webhook's new signing secret, each asked first.
 */
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toasts } from '../../../shared/messages';
import {
  CHANNEL_LABELS,
  channelUrlSchema,
  type NotificationChannel,
  type NotificationChannelsState,
} from '../../../shared/notification-channels';
import { showError, showSuccess } from '../../lib/toast';
import { parseOrShowError } from '../../lib/validate';
import { notificationChannelsApi } from './notification-channels-api';

/** What a channel's form is given by the section. */
export interface ChannelFormProps {
  channel: NotificationChannel;
  saved: string | null;
  loading: boolean;
  onStored: (state: NotificationChannelsState) => void;
  onSecret: (secret: string | null) => void;
}

export function useChannelForm({ channel, saved, loading, onStored, onSecret }: ChannelFormProps) {
  const { t } = useTranslation();
  const label = t(CHANNEL_LABELS[channel]);
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

  return {
    label,
    url,
    setUrl,
    outcome,
    removing,
    setRemoving,
    renewing,
    setRenewing,
    save,
    test,
    remove,
    renew,
    busy,
    submit,
  };
}

export type ChannelFormState = ReturnType<typeof useChannelForm>;
