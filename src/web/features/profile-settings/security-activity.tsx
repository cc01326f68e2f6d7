/**
 * Recent security activity in the settings: the user's own sign-ins, failed attempts and
 * security changes from the audit log, newest first, with when, which device and address.
 */
import {
  Cable,
  Unplug,
  BellOff,
  BellRing,
  CalendarCheck,
  CalendarX,
  Eye,
  FingerprintPattern,
  KeyRound,
  Link2,
  Link2Off,
  LogIn,
  LogOut,
  Mail,
  MailCheck,
  MailWarning,
  MailQuestion,
  MonitorX,
  PencilLine,
  ShieldAlert,
  ShieldCheck,
  ShieldMinus,
  ShieldOff,
  ShieldX,
  Trash2,
  Undo2,
  UserCheck,
  UserCog,
  UserMinus,
  UserPlus,
  type LucideIcon,
} from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../../shared/dates';
import {
  auditEventLabels,
  describeAuditDetail,
  type AuditEvent,
  type SecurityActivityEntry,
} from '../../../shared/account-security';
import { describeUserAgent } from '../../../shared/user-agent';
import { Card } from '../../components/ui/card';
import { Loading } from '../../components/ui/feedback';
import { cn } from '../../lib/cn';
import { errorMessage } from '../../lib/toast';
import { SESSION_TIME_FORMAT } from './active-sessions';
import { useSecurityActivity } from './security-queries';

const icons: Record<AuditEvent, LucideIcon> = {
  sign_up: UserPlus,
  sign_in: LogIn,
  sign_in_challenged: KeyRound,
  sign_in_failed: ShieldAlert,
  sign_out: LogOut,
  password_changed: KeyRound,
  two_factor_enabled: ShieldCheck,
  two_factor_disabled: ShieldOff,
  session_revoked: MonitorX,
  account_deleted: Trash2,
  sign_up_failed: ShieldAlert,
  verification_failed: ShieldAlert,
  share_link_created: Link2,
  share_link_revoked: Link2Off,
  too_many_attempts: ShieldX,
  calendar_link_created: CalendarCheck,
  calendar_link_revoked: CalendarX,
  calendar_feed_read: CalendarCheck,
  reminders_device_added: BellRing,
  reminders_device_removed: BellOff,
  access_granted: UserPlus,
  access_accepted: UserCheck,
  access_changed: UserCog,
  access_removed: UserMinus,
  shared_records_read: Eye,
  shared_records_changed: PencilLine,
  password_reset_requested: MailQuestion,
  password_reset: KeyRound,
  password_reset_link_created: KeyRound,
  mail_failed: MailWarning,
  email_change_requested: Mail,
  email_changed: MailCheck,
  passkey_added: FingerprintPattern,
  passkey_removed: ShieldMinus,
  sso_linked: Link2,
  passkeys_removed: ShieldMinus,
  signed_out_everywhere: LogOut,
  import_undone: Undo2,
  portal_connected: Cable,
  portal_connect_failed: ShieldAlert,
  portal_disconnected: Unplug,
  notification_channel_added: BellRing,
  notification_channel_removed: BellOff,
  dose_marked_from_notification: BellRing,
};

/** Events that tell of something refused, shown in the warning colour. */
const refusals = new Set<AuditEvent>([
  'sign_in_failed',
  'portal_connect_failed',
  'sign_up_failed',
  'verification_failed',
  'too_many_attempts',
  'mail_failed',
]);

function ActivityRow({ entry }: { entry: SecurityActivityEntry }) {
  const { t } = useTranslation();
  const label = auditEventLabels[entry.event];
  const Icon = icons[entry.event] ?? ShieldCheck;
  const failed = refusals.has(entry.event);
  const detail = describeAuditDetail(entry);
  const where = [describeUserAgent(entry.user_agent), entry.ip_address].filter(Boolean).join(' · ');
  return (
    <li className="flex gap-3 py-3 first:pt-0 last:pb-0">
      <span
        className={cn(
          'flex size-9 shrink-0 items-center justify-center rounded-full',
          failed ? 'bg-destructive-soft text-destructive' : 'bg-surface-muted text-foreground',
        )}
      >
        <Icon className="size-4" aria-hidden="true" />
      </span>
      <div className="min-w-0 flex-1 wrap-anywhere">
        <p className="font-medium">
          {label ? t(label) : entry.event}
          {detail ? <span className="font-normal text-muted-foreground"> · {detail}</span> : null}
        </p>
        <p className="text-sm text-muted-foreground">
          <time dateTime={entry.created_at}>
            {formatDate(entry.created_at, SESSION_TIME_FORMAT)}
          </time>
          {where ? <> · {where}</> : null}
        </p>
      </div>
    </li>
  );
}

export function SecurityActivity() {
  const { t } = useTranslation();
  const activity = useSecurityActivity();
  return (
    <Card className="p-5">
      <section aria-labelledby="security-activity-heading" className="space-y-4">
        <div>
          <h2 id="security-activity-heading" className="font-semibold">
            {t('Recent security activity')}
          </h2>
          <p className="text-sm text-muted-foreground">
            {t('Sign-ins, failed attempts and changes to your account’s security, newest first.')}
          </p>
        </div>
        {activity.isPending ? (
          <Loading compact />
        ) : activity.isError ? (
          <p className="text-sm text-destructive">
            {t('Could not load your security activity: {message}', {
              message: errorMessage(activity.error),
            })}
          </p>
        ) : activity.data.length === 0 ? (
          <p className="text-sm text-muted-foreground">{t('Nothing yet.')}</p>
        ) : (
          <ol aria-label={t('Recent security activity')} className="divide-y divide-border">
            {activity.data.map((entry) => (
              <ActivityRow key={entry.id} entry={entry} />
            ))}
          </ol>
        )}
      </section>
    </Card>
  );
}
