/** The 'Document Type' select of the documents' dialogs: the types of CONTRACT §5. */
import { useTranslation } from 'react-i18next';
import { DOCUMENT_TYPES, type DocumentType } from '../../../shared/documents';
import { FormField } from '../../components/ui/form-field';
import { Select } from '../../components/ui/input';

export function DocumentTypeField({
  id,
  value,
  onChange,
}: {
  id: string;
  value: DocumentType;
  onChange: (type: DocumentType) => void;
}) {
  const { t } = useTranslation();
  return (
    <FormField id={id} label={t('Document Type')} required>
      <Select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value as DocumentType)}
      >
        {DOCUMENT_TYPES.map((type) => (
          <option key={type} value={type}>
            {t(type)}
          </option>
        ))}
      </Select>
    </FormField>
  );
}
