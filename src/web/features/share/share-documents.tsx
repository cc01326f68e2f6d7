/**
 * 'Documents' in the share link dialog: the person's documents, none ticked, each named by
 * its title. The ones ticked go into the link with their files, encrypted with the records
 * (decision 0038); what they weigh in all is checked before anything is sent.
 */
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { StoredDocument } from '../../../shared/documents';
import {
  MAX_SHARED_DOCUMENT_BYTES,
  MAX_SHARED_DOCUMENTS,
  SHARED_DOCUMENTS_TOO_LARGE,
} from '../../../shared/share-links';
import { DAY_GROUP_FORMAT, formatDate } from '../../../shared/dates';
import { FieldError } from '../../components/ui/form-field';
import { Checkbox } from '../../components/ui/input';
import { useDocuments } from '../documents/document-queries';

/** The person's documents a link can carry: the newest, as many as one link takes. */
export function useShareableDocuments(personId: string) {
  const query = useDocuments({ member: personId, limit: MAX_SHARED_DOCUMENTS }, Boolean(personId));
  return query.data?.documents ?? [];
}

/**
 * What the chosen documents weigh in the link, or the refusal when too much (its English
 * key, translated where it is shown): a HEIC photo goes with its JPEG, taken to weigh as
 * much again.
 */
export function sharedDocumentsProblem(chosen: readonly StoredDocument[]): string | undefined {
  const bytes = chosen.reduce(
    (sum, document) => sum + document.size_bytes * (document.mime_type === 'image/heic' ? 2 : 1),
    0,
  );
  return bytes > MAX_SHARED_DOCUMENT_BYTES ? SHARED_DOCUMENTS_TOO_LARGE : undefined;
}

export function ShareDocuments({
  documents,
  chosen,
  onChange,
  problem,
  disabled,
}: {
  documents: readonly StoredDocument[];
  chosen: ReadonlySet<string>;
  onChange: (chosen: ReadonlySet<string>) => void;
  problem: string | undefined;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const id = useId();
  if (documents.length === 0) return null;
  const toggle = (documentId: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(documentId);
    else next.delete(documentId);
    onChange(next);
  };
  return (
    <fieldset className="space-y-2" aria-describedby={`${id}-hint${problem ? ` ${id}-error` : ''}`}>
      <legend className="mb-1.5 text-sm font-medium">{t('Documents')}</legend>
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        {t('Optional. The files go in the link, encrypted like the records.')}
      </p>
      <div className="grid gap-2">
        {documents.map((document) => (
          <div key={document.id}>
            <Checkbox
              id={`${id}-${document.id}`}
              label={document.title}
              checked={chosen.has(document.id)}
              disabled={disabled}
              aria-describedby={`${id}-${document.id}-about`}
              onChange={(event) => toggle(document.id, event.target.checked)}
            />
            <p
              id={`${id}-${document.id}-about`}
              className="mt-0.5 px-1 text-xs text-muted-foreground"
            >
              {[
                document.document_type ? t(document.document_type) : null,
                document.document_date
                  ? formatDate(document.document_date, DAY_GROUP_FORMAT)
                  : null,
              ]
                .filter(Boolean)
                .join(' · ')}
            </p>
          </div>
        ))}
      </div>
      <FieldError id={`${id}-error`} message={problem} />
    </fieldset>
  );
}
