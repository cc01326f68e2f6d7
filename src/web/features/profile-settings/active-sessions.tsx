/**
 * Active sessions in the settings: every device signed in to the account, this one marked,
 * with where and when; any other one can be ended, or all of them at once.
 */
import { Laptop, LogOut, Smartphone } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../shared/dates';
import { toasts } from '../../../shared/messages';
import type { ActiveSession } from '../../../shared/account-security';
import { describeUserAgent } from '../../../shared/user-agent';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Loading } from '../../components/ui/feedback';
import { errorMessage, showError, showSuccess } from '../../lib/toast';
import { useActiveSessions, useEndOtherSessions, useEndSession } from './security-queries';

export const SESSION_TIME_FORMAT = 'MMM d, yyyy, h:mm a';
const DAY_FORMAT = 'MMM d, yyyy';

function isPhone(device: string): boolean {
  return /\b(?:iOS|Android)\b/.test(device);
}

function SessionRow({
  session,
  onEnd,
  ending,
}: {
  session: ActiveSession;
  onEnd: () => void;
  ending: boolean;
}) {
  const { t } = useTranslation();
  const device = describeUserAgent(session.user_agent);
  const Icon = isPhone(device) ? Smartphone : Laptop;
  const signedIn = formatDate(session.created_at, SESSION_TIME_FORMAT);
  return (
    <li className="flex flex-col gap-3 rounded-2xl border border-border p-3 sm:flex-row sm:items-center">
      <div className="flex min-w-0 flex-1 items-start gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-surface-muted text-foreground">
          <Icon className="size-5" aria-hidden="true" />
        </span>
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1 font-medium">
            <span>{device}</span>
            {session.current ? (
              <span className="rounded-full bg-primary-soft px-2 py-0.5 text-xs font-semibold text-primary">
                {t('This device')}
              </span>
            ) : null}
          </p>
          <dl className="mt-1 grid grid-cols-[max-content_1fr] gap-x-3 gap-y-0.5 text-sm">
            <dt className="text-muted-foreground">{t('IP address')}</dt>
            <dd className="truncate">{session.ip_address ?? t('Unknown')}</dd>
            <dt className="text-muted-foreground">{t('Signed in')}</dt>
            <dd>{signedIn}</dd>
            <dt className="text-muted-foreground">{t('Last active')}</dt>
            <dd>{formatDate(session.last_active_at, DAY_FORMAT)}</dd>
          </dl>
        </div>
      </div>
      {session.current ? null : (
        <Button
          variant="outline"
          size="sm"
          className="self-end sm:self-center"
          onClick={onEnd}
          disabled={ending}
          aria-label={t('End session on {device}, signed in {time}', { device, time: signedIn })}
        >
          <LogOut aria-hidden="true" />
          {t('End Session')}
        </Button>
      )}
    </li>
  );
}

export function ActiveSessions() {
  const { t } = useTranslation();
  const sessions = useActiveSessions();
  const endOne = useEndSession();
  const endOthers = useEndOtherSessions();
  const others = sessions.data?.filter((session) => !session.current) ?? [];

  async function end(session: ActiveSession) {
    try {
      await endOne.mutateAsync(session.id);
      showSuccess({
        title: t('Session ended'),
        description: t('{device} is signed out.', {
          device: describeUserAgent(session.user_agent),
        }),
      });
    } catch (error) {
      showError(t(toasts.error), error);
    }
  }

  async function endAllOthers() {
    try {
      await endOthers.mutateAsync();
      showSuccess({
        title: t('Other sessions ended'),
        description: t('Every other device is signed out.'),
      });
    } catch (error) {
      showError(t(toasts.error), error);
    }
  }

  return (
    <Card className="p-5">
      <section aria-labelledby="sessions-heading" className="space-y-4">
        <div>
          <h2 id="sessions-heading" className="font-semibold">
            {t('Active sessions')}
          </h2>
          <p className="text-sm text-muted-foreground">
            {t('Where your account is signed in. End any session you do not recognise.')}
          </p>
        </div>
        {sessions.isPending ? (
          <Loading compact />
        ) : sessions.isError ? (
          <p className="text-sm text-destructive">
            {t('Could not load your sessions: {message}', {
              message: errorMessage(sessions.error),
            })}
          </p>
        ) : (
          <>
            <ul aria-label={t('Active sessions')} className="space-y-2">
              {sessions.data.map((session) => (
                <SessionRow
                  key={session.id}
                  session={session}
                  onEnd={() => void end(session)}
                  ending={endOne.isPending && endOne.variables === session.id}
                />
              ))}
            </ul>
            {others.length > 0 ? (
              <Button variant="outline" onClick={endAllOthers} disabled={endOthers.isPending}>
                <LogOut aria-hidden="true" />
                {endOthers.isPending ? t('Ending...') : t('End All Other Sessions')}
              </Button>
            ) : (
              <p className="text-sm text-muted-foreground">{t('No other device is signed in.')}</p>
            )}
          </>
        )}
      </section>
    </Card>
  );
}
