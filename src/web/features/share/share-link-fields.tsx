/**
 * The fields of the share link form: what to include (record types, the whole family's
 * contacts), and the link's 'Expires', reader's 'Language' and optional 'Link Passcode'.
 */
import { useTranslation } from 'react-i18next';
import { isLanguageCode, LANGUAGES } from '../../../shared/i18n/languages';
import {
  SHARE_LINK_EXPIRY_CHOICES,
  SHAREABLE_RECORD_LABELS,
  SHAREABLE_RECORD_TYPES,
  type ShareLinkExpiryDays,
} from '../../../shared/share-links';
import { FieldError, FormField } from '../../components/ui/form-field';
import { Checkbox, Input, Select } from '../../components/ui/input';
import type { ShareLink } from './use-share-link';
import { WholeFamilyContacts } from './whole-family-contacts';

/** 'Include': a checkbox per record type, and the whole family's contacts with contacts. */
export function IncludeFieldset({ id, link }: { id: string; link: ShareLink }) {
  const { t } = useTranslation();
  const { types, problem } = link;
  const withContacts = types.includes('contact');
  return (
    <fieldset
      className="space-y-2"
      aria-describedby={problem?.field === 'include' ? `${id}-error` : undefined}
    >
      <legend className="mb-1.5 text-sm font-medium">{t('Include')}</legend>
      <div className="grid grid-cols-2 gap-2">
        {SHAREABLE_RECORD_TYPES.map((type) => (
          <Checkbox
            key={type}
            id={`${id}-${type}`}
            label={t(SHAREABLE_RECORD_LABELS[type])}
            checked={types.includes(type)}
            onChange={(event) => link.toggle(type, event.target.checked)}
          />
        ))}
      </div>
      {withContacts ? (
        <WholeFamilyContacts
          personId={link.personId}
          checked={link.wholeFamilyContacts}
          onChange={link.setWholeFamilyContacts}
          disabled={link.create.isPending}
        />
      ) : null}
      <FieldError
        id={`${id}-error`}
        message={problem?.field === 'include' ? problem.message : undefined}
      />
    </fieldset>
  );
}

/** 'Expires', 'Language' (the reader's) and the optional 'Link Passcode'. */
export function LinkSettingsFields({
  ids,
  link,
}: {
  ids: { expires: string; language: string; passcode: string };
  link: ShareLink;
}) {
  const { t } = useTranslation();
  const { problem } = link;
  return (
    <>
      <FormField id={ids.expires} label={t('Expires')}>
        <Select
          id={ids.expires}
          value={String(link.days)}
          onChange={(event) => link.setDays(Number(event.target.value) as ShareLinkExpiryDays)}
        >
          {SHARE_LINK_EXPIRY_CHOICES.map((choice) => (
            <option key={choice} value={choice}>
              {t('{count} days', { count: choice })}
            </option>
          ))}
        </Select>
      </FormField>
      <FormField id={ids.language} label={t('Language')}>
        <Select
          id={ids.language}
          value={link.language}
          aria-describedby={`${ids.language}-hint`}
          onChange={(event) => {
            if (isLanguageCode(event.target.value)) link.setLanguage(event.target.value);
          }}
        >
          {LANGUAGES.map((choice) => (
            <option key={choice.code} value={choice.code} lang={choice.code}>
              {choice.name}
            </option>
          ))}
        </Select>
        <p id={`${ids.language}-hint`} className="text-xs text-muted-foreground">
          {t('The link opens in this language for the person who reads it.')}
        </p>
      </FormField>
      <FormField
        id={ids.passcode}
        label={t('Link Passcode')}
        error={problem?.field === 'passcode' ? problem.message : undefined}
      >
        <Input
          id={ids.passcode}
          type="text"
          autoComplete="off"
          value={link.passcode}
          maxLength={64}
          onChange={(event) => link.setPasscode(event.target.value)}
          aria-describedby={`${ids.passcode}-hint`}
        />
        <p id={`${ids.passcode}-hint`} className="text-xs text-muted-foreground">
          {t('Optional. Tell it to the recipient separately; 10 wrong tries lock the link.')}
        </p>
      </FormField>
    </>
  );
}
