/**
 * 'Share Access' (CONTRACT.md §4 Household): another account's Email, a Role (Viewer or
 * Editor), an optional last day ('Access Ends'), whether sharing and export are allowed, and
 * whether to 'Alert when a dose is missed' after some minutes (CONTRACT §6 'Notifications').
 * Granting again for an email that has access changes that access. A new grant (or one not
 * yet accepted) answers with its one-time Acceptance Code, which the dialog then shows for
 * the owner to pass on: the grant gives nothing until that email's account enters it.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ApiError } from '../../../shared/api-error';
import {
  ALERT_AFTER_LABEL,
  DEFAULT_ALERT_AFTER_MINUTES,
  GRANT_ROLE_LABELS,
  GRANT_ROLES,
  grantSchema,
  MAX_ALERT_AFTER_MINUTES,
  MIN_ALERT_AFTER_MINUTES,
  MISSED_DOSE_ALERT_LABEL,
  type Grant,
} from '../../../shared/household';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { fieldErrorProps, FormField } from '../../components/ui/form-field';
import { Checkbox, Input, Select } from '../../components/ui/input';
import { showError, showSuccess } from '../../lib/toast';
import { useGrantAccess } from './household-queries';

const formSchema = grantSchema.pick({
  email: true,
  role: true,
  accessEnds: true,
  allowExport: true,
  missedDoseAlert: true,
  alertAfterMinutes: true,
});
type FormValues = z.input<typeof formSchema>;
type Parsed = z.output<typeof formSchema>;
type Field = keyof FormValues;

const emptyValues: FormValues = {
  email: '',
  role: 'viewer',
  accessEnds: '',
  allowExport: false,
  missedDoseAlert: false,
  alertAfterMinutes: DEFAULT_ALERT_AFTER_MINUTES,
};

export function ShareAccessDialog({
  open,
  onOpenChange,
  person,
  grant,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  person: { id: string; name: string };
  /** Access to change: its email, role and end are filled in. */
  grant?: Grant;
}) {
  const save = useGrantAccess();
  /** The code of the grant just made, with its email, shown until the dialog closes. */
  const [issued, setIssued] = useState<{ email: string; code: string } | undefined>();
  const form = useForm<FormValues, unknown, Parsed>({
    resolver: zodResolver(formSchema),
    defaultValues: emptyValues,
  });
  const errors = form.formState.errors;

  useEffect(() => {
    if (!open) return;
    setIssued(undefined);
    form.reset(
      grant
        ? {
            email: grant.email,
            role: grant.role,
            accessEnds: grant.accessEnds ?? '',
            allowExport: grant.allowExport,
            missedDoseAlert: grant.alertAfterMinutes !== null,
            alertAfterMinutes: grant.alertAfterMinutes ?? DEFAULT_ALERT_AFTER_MINUTES,
          }
        : emptyValues,
    );
  }, [open, grant, form]);

  const submit = form.handleSubmit(async (values) => {
    try {
      const given = await save.mutateAsync({
        ...values,
        accessEnds: values.accessEnds ?? '',
        personId: person.id,
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      });
      if (given.acceptanceCode) {
        setIssued({ email: given.email, code: given.acceptanceCode });
        return;
      }
      // True whether or not the email has an account yet (which is not told, so that no one
      // learns from this form who has one).
      // A pending grant without a code here: the code went to the email by mail.
      const mailed =
        given.status === 'pending'
          ? ` We emailed them a one-time Acceptance Code to enter under 'Shared with you'.`
          : '';
      showSuccess({
        title: given.status === 'accepted' ? 'Access changed' : 'Access granted',
        description: `${values.email} can ${values.role === 'editor' ? 'keep' : 'see'} ${person.name}'s records when signed in with that email.${mailed}`,
      });
      onOpenChange(false);
    } catch (error) {
      if (error instanceof ApiError && error.field && error.field in emptyValues) {
        form.setError(error.field as Field, { message: error.message });
      } else {
        showError('Could not share access', error);
      }
    }
  });

  const today = new Date();
  const minDate = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title="Share Access"
        description={`Let another account on this server see or keep ${person.name}'s records.`}
      >
        {issued ? (
          <div className="space-y-4">
            <p>
              Give {issued.email} this one-time Acceptance Code. Signed in with that email, they
              enter it under &lsquo;Shared with you&rsquo; on Family Profiles; until then they see
              nothing of {person.name}&rsquo;s.
            </p>
            <FormField id="share-access-code" label="Acceptance Code">
              <Input
                id="share-access-code"
                readOnly
                value={issued.code}
                onFocus={(event) => event.currentTarget.select()}
                className="h-14 text-center font-mono text-2xl font-semibold tracking-widest"
              />
            </FormField>
            <p className="text-sm text-muted-foreground">
              It is shown only now. Lost it? Share access with the same email again for a new code.
            </p>
            <Button type="button" size="lg" className="w-full" onClick={() => onOpenChange(false)}>
              Done
            </Button>
          </div>
        ) : (
          <form onSubmit={submit} className="space-y-4" noValidate>
            <FormField id="share-access-email" label="Email" required error={errors.email?.message}>
              <Input
                id="share-access-email"
                type="email"
                autoComplete="off"
                required
                readOnly={grant !== undefined}
                {...fieldErrorProps('share-access-email', errors.email)}
                {...form.register('email')}
              />
            </FormField>
            <FormField id="share-access-role" label="Role" error={errors.role?.message}>
              <Select id="share-access-role" {...form.register('role')}>
                {GRANT_ROLES.map((role) => (
                  <option key={role} value={role}>
                    {GRANT_ROLE_LABELS[role]}
                  </option>
                ))}
              </Select>
            </FormField>
            <p className="-mt-2 text-sm text-muted-foreground">
              A Viewer reads every record of {person.name}. An Editor also adds, changes and deletes
              them; only you can delete {person.name} or change who has access.
            </p>
            <FormField
              id="share-access-ends"
              label="Access Ends"
              error={errors.accessEnds?.message}
            >
              <Input
                id="share-access-ends"
                type="date"
                min={minDate}
                aria-invalid={errors.accessEnds ? true : undefined}
                aria-describedby="share-access-ends-hint"
                {...form.register('accessEnds')}
              />
            </FormField>
            <p id="share-access-ends-hint" className="-mt-2 text-sm text-muted-foreground">
              Optional: the last day of access. Leave it empty to share until you remove it.
            </p>
            <div>
              <Checkbox
                id="share-access-export"
                label="Allow sharing and export"
                aria-describedby="share-access-export-hint"
                {...form.register('allowExport')}
              />
              <p id="share-access-export-hint" className="mt-1.5 text-sm text-muted-foreground">
                Lets them create share links, the PDF summary and FHIR downloads of {person.name}.
              </p>
            </div>
            <div>
              <Checkbox
                id="share-access-alert"
                label={MISSED_DOSE_ALERT_LABEL}
                aria-describedby="share-access-alert-hint"
                {...form.register('missedDoseAlert')}
              />
              <p id="share-access-alert-hint" className="mt-1.5 text-sm text-muted-foreground">
                They get an alert on their own reminders when a dose of {person.name}&rsquo;s is
                still not marked this many minutes after its reminder time.
              </p>
            </div>
            <FormField
              id="share-access-alert-after"
              label={ALERT_AFTER_LABEL}
              error={errors.alertAfterMinutes?.message}
            >
              <Input
                id="share-access-alert-after"
                type="number"
                inputMode="numeric"
                min={MIN_ALERT_AFTER_MINUTES}
                max={MAX_ALERT_AFTER_MINUTES}
                step={1}
                className="w-32"
                {...fieldErrorProps('share-access-alert-after', errors.alertAfterMinutes)}
                {...form.register('alertAfterMinutes')}
              />
            </FormField>
            <Button type="submit" size="lg" className="w-full" disabled={save.isPending}>
              {save.isPending ? 'Sharing...' : 'Grant Access'}
            </Button>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
