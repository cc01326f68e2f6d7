/**
 * The account's reminder times in profile settings: the times of the four times of day, the
 * time zone (offered as it is typed) and the days before a medication runs out, saved by
 * 'Save Reminder Times'.
 */
import { useTranslation } from 'react-i18next';
import { DOSE_SLOTS } from '../../../shared/doses';
import { REFILL_DAYS_LABEL, type ReminderSettings } from '../../../shared/reminders';
import { Button } from '../../components/ui/button';
import { Input, Label } from '../../components/ui/input';
import type { useReminders } from './use-reminders';

/** The time zones the browser knows, offered as the field is typed in. */
const knownTimeZones = () => Intl.supportedValuesOf('timeZone');

const SLOT_FIELDS = {
  Morning: 'time_morning',
  Noon: 'time_noon',
  Evening: 'time_evening',
  Night: 'time_night',
} as const;

export function ReminderTimesForm({
  zoneId,
  form,
  reminders,
}: {
  /** The ids' stem: the time zone field's, and its datalist's and the other fields' start. */
  zoneId: string;
  /** The settings as being edited. */
  form: ReminderSettings;
  reminders: Pick<
    ReturnType<typeof useReminders>,
    'setForm' | 'refillDays' | 'setRefillDays' | 'submit' | 'saveSettings'
  >;
}) {
  const { setForm, refillDays, setRefillDays, submit, saveSettings } = reminders;
  const { t } = useTranslation();
  return (
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
  );
}
