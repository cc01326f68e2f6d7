/**
 * 'Units' in profile settings (CONTRACT §5): the system every measure is typed and shown in,
 * 'Metric' or 'US'. What is stored does not change. Saved as soon as it is chosen.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { toasts } from '../../../shared/messages';
import {
  DEFAULT_UNITS,
  UNIT_SYSTEM_LABELS,
  UNIT_SYSTEMS,
  UNITS_LABEL,
  type UnitSystem,
} from '../../../shared/units';
import { Card } from '../../components/ui/card';
import { Label, Select } from '../../components/ui/input';
import { profileApi } from '../../lib/api';
import { queryKeys } from '../../lib/query-client';
import { showError } from '../../lib/toast';
import { useProfile } from './profile-queries';

export function UnitsSection() {
  const id = useId();
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const profile = useProfile();
  const save = useMutation({
    mutationFn: profileApi.setUnits,
    onSuccess: (updated) => {
      queryClient.setQueryData(queryKeys.profile, updated);
      // The timeline names vitals in the account's units.
      void queryClient.invalidateQueries({ queryKey: queryKeys.timelineAll });
    },
    onError: (error) => showError(t(toasts.error), error),
  });
  return (
    <Card className="space-y-3 p-4">
      <h2 className="font-semibold">{t('Measurements')}</h2>
      <div className="grid gap-1.5">
        <Label htmlFor={id}>{t(UNITS_LABEL)}</Label>
        <Select
          id={id}
          value={profile.data?.units ?? DEFAULT_UNITS}
          disabled={!profile.data || save.isPending}
          onChange={(event) => save.mutate(event.target.value as UnitSystem)}
        >
          {UNIT_SYSTEMS.map((system) => (
            <option key={system} value={system}>
              {t(UNIT_SYSTEM_LABELS[system])}
            </option>
          ))}
        </Select>
      </div>
    </Card>
  );
}
