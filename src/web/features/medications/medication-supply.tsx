/**
 * A medication's supply on its detail (CONTRACT §6 'Medication supply'): 'Runs out {date}'
 * from the schedule and what is on hand, a word when the next supply needs the doctor, and
 * 'Refilled', which adds a pack (the last pack's size offered again).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { refillSchema } from '../../../shared/dose-requests';
import { formatDate, LONG_DATE_FORMAT } from '../../../shared/dates';
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
  const adherence = useAdherence(medication.id);
  const { canChange } = useRecordOwnership()(medication);
  const [refilling, setRefilling] = useState(false);
  const supply = adherence.data?.supply;
  return (
    <div className="space-y-2">
      {supply?.runs_out ? (
        <p className="font-medium">Runs out {formatDate(supply.runs_out, LONG_DATE_FORMAT)}</p>
      ) : null}
      {supply?.new_prescription ? (
        <p className="text-sm text-amber-800 dark:text-amber-300">{NEW_PRESCRIPTION_MESSAGE}</p>
      ) : null}
      {canChange && typeof medication.quantity_on_hand === 'number' ? (
        <>
          <Button type="button" variant="outline" onClick={() => setRefilling(true)}>
            Refilled
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
  const id = useId();
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
      showSuccess(`Refilled: ${amountText(answer.quantity_on_hand ?? 0)} on hand`);
    },
    onError: (error) => setProblem(errorMessage(error)),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = refillSchema.safeParse({ pack_size: packSize });
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message);
    setProblem(undefined);
    refill.mutate(parsed.data.pack_size as number);
  }

  return (
    <Dialog open onOpenChange={onOpenChange}>
      <DialogContent
        title="Refilled"
        description="The pack is added to the quantity on hand, and one refill is used."
      >
        <form onSubmit={submit} className="space-y-4" noValidate>
          <FormField id={`${id}-pack`} label={PACK_SIZE_LABEL} required error={problem}>
            <Input
              id={`${id}-pack`}
              type="text"
              inputMode="decimal"
              autoComplete="off"
              required
              value={packSize}
              onChange={(event) => setPackSize(event.target.value)}
              {...fieldErrorProps(`${id}-pack`, problem)}
            />
          </FormField>
          <div className="flex justify-end gap-2">
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={refill.isPending}>
              {refill.isPending ? 'Saving...' : 'Save'}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
