/**
 * 'Language' in profile settings (CONTRACT §6): each language named in itself. The choice
 * applies at once, is kept in this browser, and is saved with the account, whose PDF, mail
 * and share links speak it.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { toasts } from '../../../shared/messages';
import { isLanguageCode, LANGUAGES, type LanguageCode } from '../../../shared/i18n/languages';
import { Card } from '../../components/ui/card';
import { Label, Select } from '../../components/ui/input';
import { profileApi } from '../../lib/api';
import { currentLanguageCode, switchLanguage } from '../../lib/i18n';
import { queryKeys } from '../../lib/query-client';
import { showError } from '../../lib/toast';

export function LanguageSection() {
  const id = useId();
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: profileApi.setLanguage,
    onSuccess: (updated) => queryClient.setQueryData(queryKeys.profile, updated),
    onError: (error) => showError(t(toasts.error), error),
  });
  // Saved first: the new language renders every screen anew, this one too.
  const choose = (code: LanguageCode) => {
    save.mutate(code);
    void switchLanguage(code, true);
  };
  return (
    <Card className="space-y-3 p-4">
      <div className="grid gap-1.5">
        <Label htmlFor={id}>{t('Language')}</Label>
        <Select
          id={id}
          value={currentLanguageCode()}
          disabled={save.isPending}
          onChange={(event) => {
            if (isLanguageCode(event.target.value)) choose(event.target.value);
          }}
        >
          {LANGUAGES.map((language) => (
            <option key={language.code} value={language.code} lang={language.code}>
              {language.name}
            </option>
          ))}
        </Select>
      </div>
    </Card>
  );
}
