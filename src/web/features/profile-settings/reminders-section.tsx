/**
 * 'Reminders' in profile settings (CONTRACT.md §4 "Calendar and reminders"): on this
 * device, 'Medication reminders' and 'Visit reminders' by web push; for the account, the
 * time zone (the browser's, until changed), the times of the four times of day, and
 * whether names are hidden on the lock screen; and the account's other channels, an ntfy
 * topic and a webhook (reminder-channels.tsx).
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_REFILL_DAYS } from '../../../shared/medication-supply';
import { EMAIL_REMINDERS_NOT_SET_UP_MESSAGE } from '../../../shared/reminders';
import { Card } from '../../components/ui/card';
import { Switch } from '../../components/ui/switch';
import { ReminderChannels } from './reminder-channels';
import { ReminderTimesForm } from './reminder-times-form';
import { DEVICE_SWITCHES, useReminders } from './use-reminders';

export function RemindersSection() {
  const { t } = useTranslation();
  const zoneId = useId();
  const reminders = useReminders();
  const { state, settings, form, problem, choice, busy, mail, saveSettings, chooseOnDevice } =
    reminders;

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
          onCheckedChange={(on) => reminders.saveSwitch('hide_names', on)}
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
          onCheckedChange={(on) => reminders.saveSwitch('email_reminders', on)}
        />
        <Switch
          label={t('Refill reminders')}
          hint={t(
            '{count} days before a medication with a Quantity On Hand runs out, and when its prescription ends, on the devices with medication reminders.',
            { count: form?.refill_days ?? DEFAULT_REFILL_DAYS },
          )}
          checked={state.data?.settings.refill_reminders ?? true}
          disabled={!settings || saveSettings.isPending}
          onCheckedChange={(on) => reminders.saveSwitch('refill_reminders', on)}
        />
      </div>
      {problem ? (
        <p className="mt-3 text-sm text-destructive" role="alert">
          {t(problem)}
        </p>
      ) : null}

      {form ? <ReminderTimesForm zoneId={zoneId} form={form} reminders={reminders} /> : null}
      <ReminderChannels />
    </Card>
  );
}
