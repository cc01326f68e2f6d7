/**
 * 'Reminders' in profile settings (CONTRACT.md §4 "Calendar and reminders"): on this
 * device, 'Medication reminders' and 'Visit reminders' by web push; for the account, the
 * time zone (the browser's, until changed), the times of the four times of day, and
 * whether names are hidden on the lock screen; and the account's other channels, an ntfy
 * topic and a webhook (reminder-channels.tsx).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { key } from '../../../shared/i18n/translate';
import { DOSE_SLOTS } from '../../../shared/doses';
import { DEFAULT_REFILL_DAYS } from '../../../shared/medication-supply';
import { toasts } from '../../../shared/messages';
import {
  EMAIL_REMINDERS_NOT_SET_UP_MESSAGE,
  REFILL_DAYS_LABEL,
  reminderSettingsSchema,
  type ReminderSettings,
  type RemindersState,
} from '../../../shared/reminders';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Input, Label } from '../../components/ui/input';
import { Switch } from '../../components/ui/switch';
import { remindersApi } from './reminders-api';
import { authApi } from '../../lib/auth-api';
import { showError, showSuccess } from '../../lib/toast';
import { parseOrShowError } from '../../lib/validate';
import {
  currentSubscription,
  pushSupported,
  ReminderDeviceError,
  NOT_SUPPORTED,
  subscribeDevice,
  subscriptionKeys,
} from './reminders-push';
import { ReminderChannels } from './reminder-channels';

const REMINDERS_KEY = ['reminders'] as const;

/** The time zones the browser knows, offered as the field is typed in. */
const knownTimeZones = () => Intl.supportedValuesOf('timeZone');

const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

const SLOT_FIELDS = {
  Morning: 'time_morning',
  Noon: 'time_noon',
  Evening: 'time_evening',
  Night: 'time_night',
} as const;

interface DeviceChoice {
  medication_reminders: boolean;
  visit_reminders: boolean;
  vaccine_reminders: boolean;
}

/** The kinds of reminder a device turns on or off, each a switch. */
const DEVICE_SWITCHES: readonly { key: keyof DeviceChoice; label: string; hint: string }[] = [
  {
    key: 'medication_reminders',
    label: key('Medication reminders'),
    hint: key('At each time of day, the doses due then and not yet marked, one per person.'),
  },
  {
    key: 'visit_reminders',
    label: key('Visit reminders'),
    hint: key('The day before a visit, and two hours before.'),
  },
  {
    key: 'vaccine_reminders',
    label: key('Vaccine reminders'),
    hint: key('A week before a vaccine dose is due, and on the day it becomes overdue.'),
  },
];

/** A typed number of days: a whole number as a number, anything else as typed. */
const refillDaysOf = (typed: string): unknown =>
  /^\d+$/.test(typed.trim()) ? Number(typed.trim()) : typed;

export function RemindersSection() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const zoneId = useId();
  const state = useQuery({ queryKey: REMINDERS_KEY, queryFn: remindersApi.get });
  const [endpoint, setEndpoint] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(pushSupported() ? null : NOT_SUPPORTED);
  const [form, setForm] = useState<ReminderSettings | null>(null);
  /** 'Days Before Running Out' as typed, until saved. */
  const [refillDays, setRefillDays] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    currentSubscription().then(
      (subscription) => live && setEndpoint(subscription?.endpoint ?? null),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);

  const data = state.data;
  const settings = useMemo(
    () =>
      data
        ? data.saved
          ? data.settings
          : { ...data.settings, time_zone: browserTimeZone() }
        : null,
    [data],
  );
  useEffect(() => {
    if (settings && !form) setForm(settings);
  }, [settings, form]);

  const device = state.data?.subscriptions.find((s) => s.endpoint === endpoint);
  const choice: DeviceChoice = {
    medication_reminders: device?.medication_reminders ?? false,
    visit_reminders: device?.visit_reminders ?? false,
    vaccine_reminders: device?.vaccine_reminders ?? false,
  };

  const stored = (next: RemindersState) => queryClient.setQueryData(REMINDERS_KEY, next);

  const saveSettings = useMutation({
    mutationFn: remindersApi.saveSettings,
    onSuccess: stored,
    onError: (error) => showError(t(toasts.error), error),
  });

  const chooseOnDevice = useMutation({
    mutationFn: async (next: DeviceChoice) => {
      if (!state.data) throw new Error(t('Reminders are still loading'));
      if (!DEVICE_SWITCHES.some(({ key }) => next[key])) {
        const subscription = await currentSubscription();
        const answer = subscription
          ? await remindersApi.unsubscribe(subscription.endpoint)
          : state.data;
        await subscription?.unsubscribe().catch(() => undefined);
        return { answer, endpoint: null };
      }
      const subscription = await subscribeDevice(state.data.public_key);
      // The first device to turn reminders on keeps the browser's time zone.
      if (!state.data.saved && settings) await remindersApi.saveSettings(settings);
      const answer = await remindersApi.subscribe({
        endpoint: subscription.endpoint,
        keys: subscriptionKeys(subscription),
        ...next,
      });
      return { answer, endpoint: subscription.endpoint };
    },
    onSuccess: ({ answer, endpoint: now }) => {
      setProblem(null);
      setEndpoint(now);
      stored(answer);
      if (!form || !state.data?.saved) setForm(answer.settings);
    },
    onError: (error) => {
      if (error instanceof ReminderDeviceError) setProblem(error.message);
      else showError(t(toasts.error), error);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!form) return;
    // The switch below saves itself: the form's times go with its saved value.
    const input = parseOrShowError(
      reminderSettingsSchema,
      {
        ...form,
        hide_names: settings?.hide_names ?? form.hide_names,
        email_reminders: settings?.email_reminders ?? form.email_reminders,
        refill_reminders: settings?.refill_reminders ?? form.refill_reminders,
        // Typed as text: what is no whole number goes as typed, for the schema to refuse.
        refill_days: refillDays === null ? form.refill_days : refillDaysOf(refillDays),
      },
      t(toasts.error),
    );
    if (!input) return;
    saveSettings.mutate(input, {
      onSuccess: (next) => {
        setForm(next.settings);
        setRefillDays(null);
        showSuccess(t('Reminder settings saved'));
      },
    });
  };

  const busy = chooseOnDevice.isPending || !state.data;
  const recovery = useQuery({ queryKey: ['account-recovery'], queryFn: authApi.accountRecovery });
  const mail = recovery.data?.email === true;

  /** Saves one switch alone: times being edited below are saved by their own button. */
  function saveSwitch(field: 'hide_names' | 'email_reminders' | 'refill_reminders', on: boolean) {
    if (!settings) return;
    saveSettings.mutate(
      { ...settings, [field]: on },
      {
        onSuccess: (next) =>
          setForm((current) => current && { ...current, [field]: next.settings[field] }),
      },
    );
  }

  return (
    <Card className="p-5">
      <h2 className="font-semibold">{t('Reminders')}</h2>
      <p className="mb-4 text-sm text-muted-foreground">
        {t(
          'Notifications on this device when doses are due, before visits and for vaccine doses. Each device you turn them on for gets them.',
        )}
      </p>

      <div className="grid gap-2">
        {DEVICE_SWITCHES.map(({ key, label, hint }) => (
          <Switch
            key={key}
            label={t(label)}
            hint={t(hint)}
            checked={choice[key]}
            disabled={busy}
            onCheckedChange={(on) => chooseOnDevice.mutate({ ...choice, [key]: on })}
          />
        ))}
        <Switch
          label={t('Hide names on the lock screen')}
          hint={t('Notifications say only ‘Medication due’, ‘Visit reminder’ or ‘Vaccine due’.')}
          checked={state.data?.settings.hide_names ?? false}
          disabled={!settings || saveSettings.isPending}
          onCheckedChange={(on) => saveSwitch('hide_names', on)}
        />
        <Switch
          label={t('Email reminders')}
          nameFromContent
          hint={
            mail
              ? t(
                  'The same reminders by email too, for phones where notifications cannot be turned on. They name only the person and ‘Medication due’ or ‘Visit reminder’.',
                )
              : t(EMAIL_REMINDERS_NOT_SET_UP_MESSAGE)
          }
          checked={state.data?.settings.email_reminders ?? false}
          disabled={!mail || !settings || saveSettings.isPending}
          onCheckedChange={(on) => saveSwitch('email_reminders', on)}
        />
        <Switch
          label={t('Refill reminders')}
          hint={t(
            '{count} days before a medication with a Quantity On Hand runs out, and when its prescription ends, on the devices with medication reminders.',
            { count: form?.refill_days ?? DEFAULT_REFILL_DAYS },
          )}
          checked={state.data?.settings.refill_reminders ?? true}
          disabled={!settings || saveSettings.isPending}
          onCheckedChange={(on) => saveSwitch('refill_reminders', on)}
        />
      </div>
      {problem ? (
        <p className="mt-3 text-sm text-destructive" role="alert">
          {t(problem)}
        </p>
      ) : null}

      {form ? (
        <form className="mt-5 grid gap-4" onSubmit={submit} noValidate>
          <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
            {DOSE_SLOTS.map((slot) => {
              const field = SLOT_FIELDS[slot];
              return (
                <div key={slot} className="grid gap-1.5">
                  <Label htmlFor={`${zoneId}-${field}`}>{t(slot)}</Label>
                  <Input
                    id={`${zoneId}-${field}`}
                    type="time"
                    required
                    value={form[field]}
                    onChange={(e) => setForm({ ...form, [field]: e.target.value })}
                  />
                </div>
              );
            })}
          </div>
          <div className="grid gap-1.5 sm:w-72">
            <Label htmlFor={zoneId}>{t('Time Zone')}</Label>
            <Input
              id={zoneId}
              list={`${zoneId}-zones`}
              autoComplete="off"
              value={form.time_zone}
              onChange={(e) => setForm({ ...form, time_zone: e.target.value })}
            />
            <datalist id={`${zoneId}-zones`}>
              {knownTimeZones().map((zone) => (
                <option key={zone} value={zone} />
              ))}
            </datalist>
          </div>
          <div className="grid gap-1.5 sm:w-72">
            <Label htmlFor={`${zoneId}-refill`}>{t(REFILL_DAYS_LABEL)}</Label>
            <Input
              id={`${zoneId}-refill`}
              inputMode="numeric"
              autoComplete="off"
              value={refillDays ?? String(form.refill_days)}
              onChange={(e) => setRefillDays(e.target.value)}
            />
          </div>
          <div>
            <Button type="submit" variant="outline" disabled={saveSettings.isPending}>
              {saveSettings.isPending ? t('Saving...') : t('Save Reminder Times')}
            </Button>
          </div>
        </form>
      ) : null}
      <ReminderChannels />
    </Card>
  );
}
