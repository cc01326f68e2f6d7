/**
 * 'Active Share Links' (CONTRACT.md §4): each link that has not expired, with its person,
 * when it was made, when it expires and how often it was opened; its 'Access Log' (each
 * opening: when, the name the recipient gave, and what happened) and 'Revoke link for
 * {person}' behind a confirm step. A revoked link stays listed, as revoked, until it would
 * have expired, so its access log can still be read. The links someone the user shared a
 * person with made of that person are listed too, 'Made by {name}': the user may read
 * their log and revoke them as their own. An emergency card's link says so.
 */
import { History, Link2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../shared/dates';
import { key } from '../../../shared/i18n/translate';
import { isEmergencyCardLabel } from '../../../shared/emergency-card';
import { toasts } from '../../../shared/messages';
import { WRONG_PASSCODE, type ShareLinkSummary } from '../../../shared/share-links';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Dialog, DialogContent } from '../../components/ui/dialog';
import { Loading } from '../../components/ui/feedback';
import { showError, showSuccess } from '../../lib/toast';
import { NOT_GIVEN } from '../../viewer/viewer-url';
import { useRevokeShareLink, useShareLinkAccesses, useShareLinks } from './share-link-queries';

const TIME_FORMAT = 'MMM d, yyyy, h:mm a';

export function ActiveShareLinks() {
  const { t } = useTranslation();
  const links = useShareLinks();
  return (
    <section className="mt-6" aria-labelledby="active-share-links">
      <h2 id="active-share-links" className="mb-3 font-semibold">
        {t('Active Share Links')}
      </h2>
      {links.isPending ? (
        <Loading />
      ) : links.data && links.data.length > 0 ? (
        <ul className="space-y-3">
          {links.data.map((link) => (
            <li key={link.id}>
              <ShareLinkCard link={link} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">
          {t(
            'No active links. A link you make shows here until it expires, and so does one that someone you share a person with makes of them.',
          )}
        </p>
      )}
    </section>
  );
}

/** What stops the link opening, as an English key, or null. */
function status(link: ShareLinkSummary): string | null {
  if (link.revoked_at) return key('Revoked');
  if (link.locked) return key('Locked: too many wrong passcodes');
  return null;
}

function ShareLinkCard({ link }: { link: ShareLinkSummary }) {
  const { t } = useTranslation();
  const [logOpen, setLogOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const revoke = useRevokeShareLink();
  const state = status(link);
  const revokeDescription = link.made_by
    ? t(
        'The link {maker} made for {name} stops working at once, for everyone who has it. This cannot be undone.',
        { maker: link.made_by, name: link.person_name },
      )
    : t(
        'The link for {name} stops working at once, for everyone who has it. This cannot be undone.',
        { name: link.person_name },
      );

  return (
    <Card className="p-4">
      <div className="flex items-start gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-primary-soft text-primary">
          <Link2 className="size-5" aria-hidden="true" />
        </span>
        <div className="min-w-0 flex-1 text-sm">
          <p className="font-semibold text-base">{link.person_name}</p>
          {isEmergencyCardLabel(link.label) ? (
            <p className="font-medium text-destructive">{t('Emergency card')}</p>
          ) : null}
          {link.made_by ? <p>{t('Made by {name}', { name: link.made_by })}</p> : null}
          <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-muted-foreground">
            <dt>{t('Created')}</dt>
            <dd>{formatDate(link.created_at, TIME_FORMAT)}</dd>
            <dt>{t('Expires')}</dt>
            <dd>{formatDate(link.expires_at, TIME_FORMAT)}</dd>
            <dt>{t('Opened')}</dt>
            <dd>{t('{count} times', { count: link.opened_count })}</dd>
          </dl>
          {link.has_passcode ? <p className="mt-1 text-xs">{t('Passcode protected')}</p> : null}
          {state ? <p className="mt-1 font-medium text-destructive">{t(state)}</p> : null}
        </div>
      </div>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button type="button" variant="outline" size="sm" onClick={() => setLogOpen(true)}>
          <History aria-hidden="true" />
          {t('Access Log')}
        </Button>
        {link.revoked_at ? null : (
          <Button
            type="button"
            variant="outline-destructive"
            size="sm"
            aria-label={t('Revoke link for {name}', { name: link.person_name })}
            onClick={() => setConfirming(true)}
          >
            {t('Revoke')}
          </Button>
        )}
      </div>
      <AccessLogDialog link={link} open={logOpen} onOpenChange={setLogOpen} />
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t('Revoke this link?')}
        description={revokeDescription}
        confirmLabel={t('Revoke')}
        cancelLabel={t('Cancel')}
        pendingLabel={t('Revoking...')}
        pending={revoke.isPending}
        onConfirm={() =>
          revoke.mutate(link.id, {
            onSuccess: () => {
              setConfirming(false);
              showSuccess(t('Link revoked'));
            },
            onError: (error) => showError(t(toasts.error), error),
          })
        }
      />
    </Card>
  );
}

const OUTCOME_LABELS = {
  opened: key('Opened'),
  'wrong passcode': WRONG_PASSCODE,
  refused: key('Refused'),
} as const;

function AccessLogDialog({
  link,
  open,
  onOpenChange,
}: {
  link: ShareLinkSummary;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  const accesses = useShareLinkAccesses(link.id, open);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title={t('Access Log')}
        description={t('The link for {name}', { name: link.person_name })}
      >
        {accesses.isPending ? (
          <Loading />
        ) : accesses.data && accesses.data.length > 0 ? (
          <ul className="divide-y divide-border text-sm">
            {accesses.data.map((access) => (
              <li key={access.id} className="flex items-baseline justify-between gap-3 py-2">
                <span className="min-w-0">
                  <span className="block font-medium break-words">
                    {access.recipient === NOT_GIVEN ? t(NOT_GIVEN) : access.recipient}
                  </span>
                  <span className="block text-muted-foreground">
                    {formatDate(access.created_at, TIME_FORMAT)}
                  </span>
                </span>
                <span
                  className={
                    access.outcome === 'opened'
                      ? 'shrink-0 font-medium text-primary'
                      : 'shrink-0 font-medium text-destructive'
                  }
                >
                  {t(OUTCOME_LABELS[access.outcome])}
                </span>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">{t('Nobody has opened this link yet.')}</p>
        )}
      </DialogContent>
    </Dialog>
  );
}
