/**
 * 'Calendar' in profile settings (CONTRACT.md §4): a private link that a calendar app
 * subscribes to, for the upcoming visits and shots of everyone or of one person. Its
 * address is shown once, when it is made (the server keeps only a hash of it), with an 'Add
 * to Calendar' link (`webcal:`) that hands it to the calendar app; making a new one ends the
 * old, so it asks first, and 'Revoke Calendar Link' ends it for good.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarCheck, CalendarPlus, CalendarX } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CalendarLinkState } from '../../../shared/calendar';
import { LONG_DATE_FORMAT, formatDate } from '../../../shared/dates';
import { toasts } from '../../../shared/messages';
import { LocalLinkWarning } from '../../components/local-link-warning';
import { Button, buttonVariants } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { CopyButton } from '../../components/ui/copy-button';
import { Input, Label } from '../../components/ui/input';
import { calendarApi } from './calendar-api';
import { showError, showSuccess } from '../../lib/toast';
import { PersonSelect, usePersons } from '../family-members/person-select';

const CALENDAR_KEY = ['calendar-link'] as const;

/** The same feed as a calendar app's subscription address: webcal: over http(s). */
const webcalUrl = (url: string) => url.replace(/^https?:/, 'webcal:');

export function CalendarSection() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const persons = usePersons();
  const linkId = useId();
  const [personId, setPersonId] = useState('');
  const [made, setMade] = useState<CalendarLinkState | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [replacing, setReplacing] = useState(false);
  const current = useQuery({ queryKey: CALENDAR_KEY, queryFn: calendarApi.get });

  const create = useMutation({
    mutationFn: () => calendarApi.create({ person_id: personId || null }),
    onSuccess: ({ link }) => {
      setMade(link);
      setReplacing(false);
      queryClient.setQueryData(CALENDAR_KEY, { link });
    },
    onError: (error) => showError(t(toasts.error), error),
  });
  const revoke = useMutation({
    mutationFn: calendarApi.revoke,
    onSuccess: () => {
      setMade(null);
      setConfirming(false);
      queryClient.setQueryData(CALENDAR_KEY, { link: null });
      showSuccess(t('Calendar link revoked'));
    },
    onError: (error) => showError(t(toasts.error), error),
  });

  const link = current.data?.link ?? null;
  const whose = (id: string | null) =>
    id === null
      ? t('everyone')
      : (persons.find((person) => person.id === id)?.label ?? t('one person'));

  return (
    <Card className="p-5">
      <h2 className="font-semibold">{t('Calendar')}</h2>
      <p className="mb-4 text-sm text-muted-foreground">
        {t(
          'A private link your phone’s or computer’s calendar can subscribe to: upcoming visits (title, doctor, place) and shots, never conditions, medications or notes. Anyone with the link can read it, so keep it to yourself; revoke it if it gets out.',
        )}
      </p>

      {made?.url ? (
        <div className="mb-4 grid grid-cols-1 gap-1.5">
          <Label htmlFor={linkId}>{t('Calendar Link')}</Label>
          <Input id={linkId} readOnly value={made.url} onFocus={(e) => e.target.select()} />
          <p className="text-sm text-muted-foreground">
            {t(
              'Shown only now: copy it into your calendar app (‘Subscribe to calendar’ or ‘From URL’).',
            )}
          </p>
          <div className="flex flex-wrap gap-2">
            <a className={buttonVariants({ variant: 'primary' })} href={webcalUrl(made.url)}>
              <CalendarCheck aria-hidden="true" />
              {t('Add to Calendar')}
            </a>
            <CopyButton text={made.url} label={t('Copy Link')} />
          </div>
          <LocalLinkWarning link={made.url} />
        </div>
      ) : link ? (
        <p className="mb-4 text-sm" role="status">
          {link.last_read_at
            ? t(
                'A link for {whose} is active, made {made}, last read {read}. Its address was shown when it was made; a new link replaces it.',
                {
                  whose: whose(link.person_id),
                  made: formatDate(link.created_at, LONG_DATE_FORMAT),
                  read: formatDate(link.last_read_at, LONG_DATE_FORMAT),
                },
              )
            : t(
                'A link for {whose} is active, made {made}, not read yet. Its address was shown when it was made; a new link replaces it.',
                {
                  whose: whose(link.person_id),
                  made: formatDate(link.created_at, LONG_DATE_FORMAT),
                },
              )}
        </p>
      ) : null}

      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
        <div className="sm:w-64 sm:shrink-0">
          <PersonSelect
            label={t('Calendar for')}
            everyone={t('Everyone')}
            value={personId}
            onChange={setPersonId}
          />
        </div>
        <Button
          type="button"
          // A new link ends the one calendars already read: ask first.
          onClick={() => (link ? setReplacing(true) : create.mutate())}
          disabled={create.isPending}
        >
          <CalendarPlus aria-hidden="true" />
          {t('Create Calendar Link')}
        </Button>
        {link ? (
          <Button type="button" variant="outline" onClick={() => setConfirming(true)}>
            <CalendarX aria-hidden="true" />
            {t('Revoke Calendar Link')}
          </Button>
        ) : null}
      </div>

      <ConfirmDialog
        open={replacing}
        onOpenChange={setReplacing}
        title={t('Replace the calendar link?')}
        description={t(
          'This ends the link your calendars use: they stop receiving your visits and shots until you subscribe them to the new link.',
        )}
        confirmLabel={t('Create New Link')}
        pendingLabel={t('Creating...')}
        pending={create.isPending}
        onConfirm={() => create.mutate()}
      />
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t('Revoke the calendar link?')}
        description={t(
          'Calendars subscribed to it stop receiving your visits and shots. You can create a new link at any time.',
        )}
        confirmLabel={t('Revoke')}
        pendingLabel={t('Revoking...')}
        pending={revoke.isPending}
        onConfirm={() => revoke.mutate()}
      />
    </Card>
  );
}
