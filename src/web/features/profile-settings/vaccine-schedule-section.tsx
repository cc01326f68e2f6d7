/**
 * 'Vaccine Schedule' in profile settings (CONTRACT §5): the schedule the Schedule tab of
 * /shots follows, or 'None'. Saved as soon as it is chosen.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { toasts } from '../../../shared/messages';
import { vaccineScheduleField } from '../../../shared/account-settings';
import { Card } from '../../components/ui/card';
import { Label, Select } from '../../components/ui/input';
import { profileApi } from '../../lib/api';
import { queryKeys } from '../../lib/query-client';
import { showError } from '../../lib/toast';
import { useProfile } from './profile-queries';

export function VaccineScheduleSection() {
  const id = useId();
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const profile = useProfile();
  const save = useMutation({
    mutationFn: profileApi.setVaccineSchedule,
    onSuccess: (updated) => {
      queryClient.setQueryData(queryKeys.profile, updated);
      void queryClient.invalidateQueries({ queryKey: ['vaccine-schedule'] });
    },
    onError: (error) => showError(t(toasts.error), error),
  });
  return (
    <Card className="space-y-3 p-4">
      <h2 className="font-semibold">{t('Vaccines')}</h2>
      <div className="grid gap-1.5">
        <Label htmlFor={id}>{t(vaccineScheduleField.label)}</Label>
        <Select
          id={id}
          value={profile.data?.vaccine_schedule ?? String(vaccineScheduleField.initial)}
          disabled={!profile.data || save.isPending}
          onChange={(event) => save.mutate(event.target.value)}
        >
          {vaccineScheduleField.options?.map((option) => (
            <option key={option.value} value={option.value}>
              {t(option.label)}
            </option>
          ))}
        </Select>
      </div>
    </Card>
  );
}
