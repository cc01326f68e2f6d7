/**
 * 'Include whole-family contacts': a person's PDF and share link carry the contacts that care
 * for them; the whole family's (tied to no one) only when the owner ticks this. Offered for
 * the user's own persons only: a shared person's export never carries them.
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { key } from '../../../shared/i18n/translate';
import { Checkbox } from '../../components/ui/input';
import { usePersons } from '../family-members/person-select';

export const WHOLE_FAMILY_CONTACTS_LABEL = key('Include whole-family contacts');

export function WholeFamilyContacts({
  personId,
  checked,
  onChange,
  disabled,
}: {
  personId: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const id = useId();
  const own = usePersons().some((person) => person.id === personId);
  if (!own) return null;
  return (
    <Checkbox
      id={id}
      label={t(WHOLE_FAMILY_CONTACTS_LABEL)}
      checked={checked}
      disabled={disabled}
      onChange={(event) => onChange(event.target.checked)}
    />
  );
}
