/**
 * /profile-settings: the email (read-only), the full name, the account's security (two-factor
 * sign-in, active sessions, recent activity), the patient portals connected, and signing out.
 */
import { LogOut, TriangleAlert } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { profileUpdateSchema } from '../../../shared/auth';
import { toasts } from '../../../shared/messages';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Loading } from '../../components/ui/feedback';
import { fieldErrorProps, FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { showError, showSuccess } from '../../lib/toast';
import { parseOrShowError } from '../../lib/validate';
import { useSignOut } from '../auth/session';
import { PageHeader } from '../shell/page-header';
import { ActiveSessions } from './active-sessions';
import { CalendarSection } from './calendar-section';
import { ConnectionsSection } from './connections-section';
import { RemindersSection } from './reminders-section';
import { VaccineScheduleSection } from './vaccine-schedule-section';
import { UnitsSection } from './units-section';
import { LanguageSection } from './language-section';
import { useProfile, useUpdateProfile } from './profile-queries';
import { YourDataSection } from './your-data-section';
import { DocumentStorageSection } from './document-storage-section';
import { SecurityActivity } from './security-activity';
import { TwoFactorSettings } from './two-factor-settings';
import { PasswordSection } from './password-section';
import { EmailSection } from './email-section';
import { PasskeysSection } from './passkeys-section';
import { SignOutEverywhere } from './sign-out-everywhere';
import { usePasskeysOffered } from '../auth/passkey-sign-in';

const FULL_NAME_FIELD = 'profile-full-name';

/** For an account whose password, chosen at sign-up, is one of the most common. */
function CommonPasswordNotice() {
  const { t } = useTranslation();
  return (
    <Card tone="danger" className="p-5">
      <section aria-labelledby="common-password-heading" className="flex items-start gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-destructive-soft text-destructive">
          <TriangleAlert className="size-5" aria-hidden="true" />
        </span>
        <div className="min-w-0 flex-1">
          <h2 id="common-password-heading" className="font-semibold">
            {t('Your password is easy to guess')}
          </h2>
          <p className="text-sm text-muted-foreground">
            {t(
              'The password you chose is one of the most common. Anyone could guess it. Turn on two-factor sign-in below, so that the password alone does not open your family’s records.',
            )}
          </p>
        </div>
      </section>
    </Card>
  );
}

export function ProfileSettingsPage() {
  const { t } = useTranslation();
  const profile = useProfile();
  const update = useUpdateProfile();
  const [fullName, setFullName] = useState('');
  // Shown under the field, as well as in the toast: the field it is about is marked.
  const [nameError, setNameError] = useState<string | undefined>();

  useEffect(() => {
    if (profile.data) setFullName(profile.data.full_name);
  }, [profile.data]);

  useEffect(() => {
    // SPEC.md §8: a failed profile load here is only logged.
    if (profile.error) console.error('Could not load the profile', profile.error);
  }, [profile.error]);

  const signOut = useSignOut();
  const passkeysOffered = usePasskeysOffered();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseOrShowError(
      profileUpdateSchema,
      { full_name: fullName },
      t(toasts.error),
      (issue) => setNameError(issue.message),
    );
    if (!parsed) return;
    setNameError(undefined);
    try {
      await update.mutateAsync(parsed.full_name);
      showSuccess({
        title: t(toasts.profileUpdated.title),
        description: t(toasts.profileUpdated.description),
      });
    } catch (error) {
      showError(t(toasts.error), error);
    }
  }

  return (
    <>
      <PageHeader title={t('Profile Settings')} backTo="/" />
      {profile.isPending ? (
        <Loading />
      ) : (
        <div className="space-y-4">
          <Card className="p-5">
            {/* Its own messages, as visible text, rather than the browser's bubble. */}
            <form onSubmit={submit} className="space-y-4" noValidate>
              <FormField id="profile-email" label={t('Email')}>
                <Input id="profile-email" type="email" readOnly value={profile.data?.email ?? ''} />
              </FormField>
              <FormField id={FULL_NAME_FIELD} label={t('Full Name')} required error={nameError}>
                <Input
                  id={FULL_NAME_FIELD}
                  required
                  {...fieldErrorProps(FULL_NAME_FIELD, nameError)}
                  autoComplete="name"
                  value={fullName}
                  onChange={(event) => setFullName(event.target.value)}
                />
              </FormField>
              <Button type="submit" className="w-full sm:w-auto" disabled={update.isPending}>
                {update.isPending ? t('Saving...') : t('Update Profile')}
              </Button>
            </form>
          </Card>
          {profile.data?.password_common ? <CommonPasswordNotice /> : null}
          <EmailSection currentEmail={profile.data?.email ?? ''} />
          <PasswordSection />
          <TwoFactorSettings />
          {passkeysOffered ? <PasskeysSection /> : null}
          <ActiveSessions />
          <SignOutEverywhere />
          <SecurityActivity />
          <CalendarSection />
          <RemindersSection />
          <LanguageSection />
          <UnitsSection />
          <VaccineScheduleSection />
          <ConnectionsSection />
          <YourDataSection />
          <DocumentStorageSection />
          <Card className="p-5">
            <h2 className="font-semibold">{t('Sign Out')}</h2>
            <p className="mb-4 text-sm text-muted-foreground">
              {t('End this session on this device.')}
            </p>
            <Button variant="outline" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
              <LogOut aria-hidden="true" />
              {t('Sign Out')}
            </Button>
          </Card>
        </div>
      )}
    </>
  );
}

export default ProfileSettingsPage;
