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
import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation();
  /** A message of the shared schema or the server, in the language in force. */
  const said = (message: string | undefined) => (message ? t(message) : undefined);
  const save = useGrantAccess();
  /** The code of the grant just made, with its email, shown until the dialog closes. */
  const [issued, setIssued] = useState<{ email: string; code: string } | undefined>();
  const form = useForm<FormValues, unknown, Parsed>({
    resolver: zodResolver(formSchema),
    defaultValues: emptyValues,
  });
  const errors = form.formState.errors;
  // Each input's field name and error wiring (names and ids, not words).
  const inputs = {
    email: { ...fieldErrorProps('share-access-email', errors.email), ...form.register('email') },
    role: form.register('role'),
    accessEnds: form.register('accessEnds'),
    allowExport: form.register('allowExport'),
    missedDoseAlert: form.register('missedDoseAlert'),
    alertAfterMinutes: {
      ...fieldErrorProps('share-access-alert-after', errors.alertAfterMinutes),
      ...form.register('alertAfterMinutes'),
    },
  };

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
          ? ` ${t("We emailed them a one-time Acceptance Code to enter under 'Shared with you'.")}`
          : '';
      const names = { email: values.email, name: person.name };
      const access =
        values.role === 'editor'
          ? t("{email} can keep {name}'s records when signed in with that email.", names)
          : t("{email} can see {name}'s records when signed in with that email.", names);
      showSuccess({
        title: given.status === 'accepted' ? t('Access changed') : t('Access granted'),
        description: `${access}${mailed}`,
      });
      onOpenChange(false);
    } catch (error) {
      if (error instanceof ApiError && error.field && error.field in emptyValues) {
        form.setError(error.field as Field, { message: error.message });
      } else {
        showError(t('Could not share access'), error);
      }
    }
  });

  const today = new Date();
  const minDate = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={t('Share Access')}
        description={t("Let another account on this server see or keep {name}'s records.", {
          name: person.name,
        })}
      >
        {issued ? (
          <div className="space-y-4">
            <p>
              {t(
                'Give {email} this one-time Acceptance Code. Signed in with that email, they enter it under ‘Shared with you’ on Family Profiles; until then they see nothing of {name}’s.',
                { email: issued.email, name: person.name },
              )}
            </p>
            <FormField id="share-access-code" label={t('Acceptance Code')}>
              <Input
                id="share-access-code"
                readOnly
                value={issued.code}
                onFocus={(event) => event.currentTarget.select()}
                size="code"
              />
            </FormField>
            <p className="text-sm text-muted-foreground">
              {t(
                'It is shown only now. Lost it? Share access with the same email again for a new code.',
              )}
            </p>
            <Button type="button" size="lg" className="w-full" onClick={() => onOpenChange(false)}>
              {t('Done')}
            </Button>
          </div>
        ) : (
          <form onSubmit={submit} className="space-y-4" noValidate>
            <FormField
              id="share-access-email"
              label={t('Email')}
              required
              error={said(errors.email?.message)}
            >
              <Input
                id="share-access-email"
                type="email"
                autoComplete="off"
                required
                readOnly={grant !== undefined}
                {...inputs.email}
              />
            </FormField>
            <FormField id="share-access-role" label={t('Role')} error={said(errors.role?.message)}>
              <Select id="share-access-role" {...inputs.role}>
                {GRANT_ROLES.map((role) => (
                  <option key={role} value={role}>
                    {t(GRANT_ROLE_LABELS[role])}
                  </option>
                ))}
              </Select>
            </FormField>
            <p className="-mt-2 text-sm text-muted-foreground">
              {t(
                'A Viewer reads every record of {name}. An Editor also adds, changes and deletes them; only you can delete {name} or change who has access.',
                { name: person.name },
              )}
            </p>
            <FormField
              id="share-access-ends"
              label={t('Access Ends')}
              error={said(errors.accessEnds?.message)}
            >
              <Input
                id="share-access-ends"
                type="date"
                min={minDate}
                aria-invalid={errors.accessEnds ? true : undefined}
                aria-describedby="share-access-ends-hint"
                {...inputs.accessEnds}
              />
            </FormField>
            <p id="share-access-ends-hint" className="-mt-2 text-sm text-muted-foreground">
              {t('Optional: the last day of access. Leave it empty to share until you remove it.')}
            </p>
            <div>
              <Checkbox
                id="share-access-export"
                label={t('Allow sharing and export')}
                aria-describedby="share-access-export-hint"
                {...inputs.allowExport}
              />
              <p id="share-access-export-hint" className="mt-1.5 text-sm text-muted-foreground">
                {t('Lets them create share links, the PDF summary and FHIR downloads of {name}.', {
                  name: person.name,
                })}
              </p>
            </div>
            <div>
              <Checkbox
                id="share-access-alert"
                label={t(MISSED_DOSE_ALERT_LABEL)}
                aria-describedby="share-access-alert-hint"
                {...inputs.missedDoseAlert}
              />
              <p id="share-access-alert-hint" className="mt-1.5 text-sm text-muted-foreground">
                {t(
                  'They get an alert on their own reminders when a dose of {name}’s is still not marked this many minutes after its reminder time.',
                  { name: person.name },
                )}
              </p>
            </div>
            <FormField
              id="share-access-alert-after"
              label={t(ALERT_AFTER_LABEL)}
              error={said(errors.alertAfterMinutes?.message)}
            >
              <Input
                id="share-access-alert-after"
                type="number"
                inputMode="numeric"
                min={MIN_ALERT_AFTER_MINUTES}
                max={MAX_ALERT_AFTER_MINUTES}
                step={1}
                size="narrow"
                {...inputs.alertAfterMinutes}
              />
            </FormField>
            <Button type="submit" size="lg" className="w-full" disabled={save.isPending}>
              {save.isPending ? t('Sharing...') : t('Grant Access')}
            </Button>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
