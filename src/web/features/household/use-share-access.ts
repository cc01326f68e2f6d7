/**
 * What 'Share Access' does, apart from how it looks: its form, filled in with the access to
 * change or empty, each input's wiring, and the grant, which shows its Acceptance Code or
 * says what was given and closes.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ApiError } from '../../../shared/api-error';
import { DEFAULT_ALERT_AFTER_MINUTES, grantSchema, type Grant } from '../../../shared/household';
import { fieldErrorProps } from '../../components/ui/form-field';
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

/** What the dialog is given: whose records, and the access to change if any. */
export interface ShareAccessProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  person: { id: string; name: string };
  /** Access to change: its email, role and end are filled in. */
  grant?: Grant;
}

export function useShareAccess({ open, onOpenChange, person, grant }: ShareAccessProps) {
  const { t } = useTranslation();
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

  return { save, issued, errors, inputs, submit };
}
