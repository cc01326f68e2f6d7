/**
 * What the 'Reminders' section does, apart from how it looks: the account's reminder settings
 * as saved and as being edited, this device's web push subscription and the kinds of reminder
 * it gets, and the saves of each.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { key } from '../../../shared/i18n/translate';
import { toasts } from '../../../shared/messages';
import {
  reminderSettingsSchema,
  type ReminderSettings,
  type RemindersState,
} from '../../../shared/reminders';
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

const REMINDERS_KEY = ['reminders'] as const;

const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export interface DeviceChoice {
  medication_reminders: boolean;
  visit_reminders: boolean;
  vaccine_reminders: boolean;
}

/** The kinds of reminder a device turns on or off, each a switch. */
export const DEVICE_SWITCHES: readonly { key: keyof DeviceChoice; label: string; hint: string }[] =
  [
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

export function useReminders() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
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
  const saveSwitch = (
    field: 'hide_names' | 'email_reminders' | 'refill_reminders',
    on: boolean,
  ) => {
    if (!settings) return;
    saveSettings.mutate(
      { ...settings, [field]: on },
      {
        onSuccess: (next) =>
          setForm((current) => current && { ...current, [field]: next.settings[field] }),
      },
    );
  };

  return {
    state,
    settings,
    form,
    setForm,
    refillDays,
    setRefillDays,
    problem,
    choice,
    busy,
    mail,
    saveSettings,
    chooseOnDevice,
    submit,
    saveSwitch,
  };
}
