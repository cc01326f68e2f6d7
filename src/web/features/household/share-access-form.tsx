/**
 * The two faces of 'Share Access': the form (Email, Role, Access Ends, sharing and export,
 * the missed-dose alert), and, once a grant answers with one, its one-time Acceptance Code.
 */
import { useTranslation } from 'react-i18next';
import {
  ALERT_AFTER_LABEL,
  GRANT_ROLE_LABELS,
  GRANT_ROLES,
  MAX_ALERT_AFTER_MINUTES,
  MIN_ALERT_AFTER_MINUTES,
  MISSED_DOSE_ALERT_LABEL,
} from '../../../shared/household';
import { Button } from '../../components/ui/button';
import { FormField } from '../../components/ui/form-field';
import { Checkbox, Input, Select } from '../../components/ui/input';
import type { ShareAccessProps, useShareAccess } from './use-share-access';

/** The code of the grant just made, for the owner to pass on to that email. */
export function AcceptanceCode({
  issued,
  person,
  onDone,
}: {
  issued: { email: string; code: string };
  person: ShareAccessProps['person'];
  onDone: () => void;
}) {
  const { t } = useTranslation();
  return (
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
        {t('It is shown only now. Lost it? Share access with the same email again for a new code.')}
      </p>
      <Button type="button" size="lg" className="w-full" onClick={onDone}>
        {t('Done')}
      </Button>
    </div>
  );
}

export function ShareAccessForm({
  person,
  grant,
  access,
}: Pick<ShareAccessProps, 'person' | 'grant'> & {
  access: Pick<ReturnType<typeof useShareAccess>, 'save' | 'errors' | 'inputs' | 'submit'>;
}) {
  const { t } = useTranslation();
  const { save, errors, inputs, submit } = access;
  /** A message of the shared schema or the server, in the language in force. */
  const said = (message: string | undefined) => (message ? t(message) : undefined);

  const today = new Date();
  const minDate = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
  return (
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
  );
}
