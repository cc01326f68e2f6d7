/** Today's doses and a medication's adherence, with the marks that change them. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { localToday } from '../../../shared/dates';
import { tr } from '../../../shared/i18n/translate';
import { toasts } from '../../../shared/messages';
import { dosesApi } from '../../lib/api';
import { queryKeys } from '../../lib/query-client';
import { showError } from '../../lib/toast';

const DOSES_KEY = ['doses'] as const;

export function useTodayDoses() {
  const today = localToday();
  return useQuery({
    queryKey: [...DOSES_KEY, 'today', today],
    queryFn: () => dosesApi.today(today),
  });
}

export function useAdherence(medicationId: string) {
  const today = localToday();
  return useQuery({
    queryKey: [...DOSES_KEY, 'adherence', medicationId, today],
    queryFn: () => dosesApi.adherence(medicationId, today),
  });
}

/** Marks, logs and undoes doses; the checklist and adherence read again after each. */
export function useDoseMarks() {
  const queryClient = useQueryClient();
  // A taken dose lowers the medication's quantity on hand: its record is read again too.
  const settled = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: DOSES_KEY }),
      queryClient.invalidateQueries({ queryKey: queryKeys.records('medication') }),
    ]);
  const onError = (error: unknown) => showError(tr(toasts.error), error);
  return {
    mark: useMutation({ mutationFn: dosesApi.mark, onSettled: settled, onError }),
    undo: useMutation({ mutationFn: dosesApi.undo, onSettled: settled, onError }),
  };
}
