/**
 * A medication's supply on its detail (CONTRACT §6 'Medication supply'): 'Runs out {date}'
 * from the schedule and what is on hand, a word when the next supply needs the doctor, and
 * 'Refilled', which adds a pack (the last pack's size offered again).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { refillSchema } from '../../../shared/dose-requests';
import { formatDate, formatNumber, LONG_DATE_FORMAT } from '../../../shared/dates';
import { NEW_PRESCRIPTION_MESSAGE, PACK_SIZE_LABEL } from '../../../shared/medication-supply';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { FormField, fieldErrorProps } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { dosesApi } from '../../lib/api';
import { queryKeys } from '../../lib/query-client';
import { errorMessage, showSuccess } from '../../lib/toast';
import { useAdherence } from '../doses/dose-queries';
import { useRecordOwnership } from '../household/household-queries';

export interface SuppliedMedication {
  id: string;
  user_id?: string;
  family_member_id?: string | null;
  quantity_on_hand?: unknown;
  refills_left?: unknown;
  prescription_ends?: unknown;
  pack_size?: unknown;
}

/** Whether the medication keeps a supply worth a line on its detail. */
export const keepsSupply = (medication: SuppliedMedication) =>
  typeof medication.quantity_on_hand === 'number' ||
  typeof medication.refills_left === 'number' ||
  typeof medication.prescription_ends === 'string';

/** Numbers as the user typed them: 30, 2.5 (never 30.000000001). */
const amountText = (value: number) => String(Math.round(value * 100) / 100);

export function SupplySummary({ medication }: { medication: SuppliedMedication }) {
  const { t } = useTranslation();
  const adherence = useAdherence(medication.id);
  const { canChange } = useRecordOwnership()(medication);
  const [refilling, setRefilling] = useState(false);
  const supply = adherence.data?.supply;
  return (
    <div className="space-y-2">
      {supply?.runs_out ? (
        <p className="font-medium">
          {t('Runs out {date}', { date: formatDate(supply.runs_out, LONG_DATE_FORMAT) })}
        </p>
      ) : null}
      {supply?.new_prescription ? (
        <p className="text-sm text-amber-800 dark:text-amber-300">{t(NEW_PRESCRIPTION_MESSAGE)}</p>
      ) : null}
      {canChange && typeof medication.quantity_on_hand === 'number' ? (
        <>
          <Button type="button" variant="outline" onClick={() => setRefilling(true)}>
            {t('Refilled')}
          </Button>
          {refilling ? <RefillDialog medication={medication} onOpenChange={setRefilling} /> : null}
        </>
      ) : null}
    </div>
  );
}

function RefillDialog({
  medication,
  onOpenChange,
}: {
  medication: SuppliedMedication;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  const packId = `${useId()}-pack`;
  const queryClient = useQueryClient();
  const lastPack = typeof medication.pack_size === 'number' ? amountText(medication.pack_size) : '';
  const [packSize, setPackSize] = useState(lastPack);
  const [problem, setProblem] = useState<string | undefined>();
  const refill = useMutation({
    mutationFn: (pack_size: number) => dosesApi.refill(medication.id, { pack_size }),
    onSuccess: async (answer) => {
      onOpenChange(false);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.records('medication') }),
        queryClient.invalidateQueries({ queryKey: ['doses'] }),
      ]);
      showSuccess(
        t('Refilled: {amount} on hand', {
          amount: formatNumber(Math.round((answer.quantity_on_hand ?? 0) * 100) / 100, {
            maximumFractionDigits: 2,
            useGrouping: false,
          }),
        }),
      );
    },
    onError: (error) => setProblem(errorMessage(error)),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = refillSchema.safeParse({ pack_size: packSize });
    if (!parsed.success) {
      const message = parsed.error.issues[0]?.message;
      return setProblem(message === undefined ? undefined : t(message));
    }
    setProblem(undefined);
    refill.mutate(parsed.data.pack_size as number);
  }

  return (
    <Dialog open onOpenChange={onOpenChange}>
      <DialogContent
        title={t('Refilled')}
        description={t('The pack is added to the quantity on hand, and one refill is used.')}
      >
        <form onSubmit={submit} className="space-y-4" noValidate>
          <FormField id={packId} label={t(PACK_SIZE_LABEL)} required error={problem}>
            <Input
              id={packId}
              type="text"
              inputMode="decimal"
              autoComplete="off"
              required
              value={packSize}
              onChange={(event) => setPackSize(event.target.value)}
              {...fieldErrorProps(packId, problem)}
            />
          </FormField>
          <div className="flex justify-end gap-2">
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              {t('Cancel')}
            </Button>
            <Button type="submit" disabled={refill.isPending}>
              {refill.isPending ? t('Saving...') : t('Save')}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
