/**
 * 'Shared with you' (/profiles): the persons other accounts shared with the user, and, while
 * a grant to their email waits, where they enter the one-time 'Acceptance Code' the owner
 * passed on, which makes that grant theirs ('Accept'). With neither, nothing is shown.
 */
import { Cake } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api-error';
import { DAY_GROUP_FORMAT, formatDate } from '../../../shared/dates';
import { acceptGrantSchema, GRANT_ROLE_LABELS } from '../../../shared/household';
import { PersonAvatar } from '../../components/person-avatar';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { fieldErrorProps, FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { showError, showSuccess } from '../../lib/toast';
import { EmergencyCardLink } from '../emergency-card/emergency-card-link';
import { useAcceptGrant, useHasPendingGrants, useSharedPersons } from './household-queries';

function AcceptanceCodeForm() {
  const { t } = useTranslation();
  const accept = useAcceptGrant();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = acceptGrantSchema.safeParse({ code });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    try {
      await accept.mutateAsync({ code });
      setError(undefined);
      setCode('');
      showSuccess(t('Access accepted'));
    } catch (caught) {
      if (caught instanceof ApiError && caught.field === 'code') setError(caught.message);
      else showError(t('Could not accept access'), caught);
    }
  };

  // The input's error wiring (an id, not words).
  const errorProps = fieldErrorProps('acceptance-code', error);
  return (
    <form onSubmit={submit} noValidate className="flex flex-wrap items-end gap-3">
      <div className="min-w-0 flex-1 basis-48">
        <FormField
          id="acceptance-code"
          label={t('Acceptance Code')}
          error={error ? t(error) : undefined}
        >
          <Input
            id="acceptance-code"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            value={code}
            onChange={(event) => setCode(event.target.value)}
            {...errorProps}
            aria-describedby={error ? 'acceptance-code-error' : 'acceptance-code-hint'}
          />
        </FormField>
      </div>
      <Button type="submit" disabled={accept.isPending}>
        {accept.isPending ? t('Accepting...') : t('Accept')}
      </Button>
      <p id="acceptance-code-hint" className="w-full text-sm text-muted-foreground">
        {t(
          'Someone who shared a person with your email gave you a code: enter it here to see their records.',
        )}
      </p>
    </form>
  );
}

export function SharedWithYou() {
  const { t } = useTranslation();
  const shared = useSharedPersons();
  const pending = useHasPendingGrants();
  if (shared.length === 0 && !pending) return null;
  return (
    <section aria-labelledby="shared-with-you" className="mt-8">
      <h2 id="shared-with-you" className="mb-3 text-lg font-semibold">
        {t('Shared with you')}
      </h2>
      {shared.length ? (
        <ul className="mb-4 space-y-3">
          {shared.map((person) => (
            <li key={person.grantId}>
              <Card className="flex items-center gap-4 overflow-hidden p-4">
                <PersonAvatar name={person.name} color={person.color} />
                <div className="min-w-0 flex-1">
                  <h3 className="font-semibold break-words">{person.name}</h3>
                  <p className="text-sm text-muted-foreground">
                    {t('Shared by {name}', { name: person.ownerName })}
                  </p>
                  <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-muted-foreground">
                    {person.dateOfBirth ? (
                      <span className="inline-flex items-center gap-1.5">
                        <Cake className="size-4" aria-hidden="true" />
                        {t('Born {date}', {
                          date: formatDate(person.dateOfBirth, DAY_GROUP_FORMAT),
                        })}
                      </span>
                    ) : null}
                    {person.accessEnds ? (
                      <span>
                        {t('Access ends {date}', {
                          date: formatDate(person.accessEnds, DAY_GROUP_FORMAT),
                        })}
                      </span>
                    ) : null}
                  </p>
                  <EmergencyCardLink personId={person.personId} />
                </div>
                <span className="shrink-0 rounded-full bg-primary-soft px-3 py-1 text-xs font-semibold text-primary">
                  {t(GRANT_ROLE_LABELS[person.role])}
                </span>
              </Card>
            </li>
          ))}
        </ul>
      ) : null}
      {pending ? (
        <Card className="p-4">
          <AcceptanceCodeForm />
        </Card>
      ) : null}
    </section>
  );
}
