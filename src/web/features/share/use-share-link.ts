/**
 * What making a share link does, apart from how it looks: the person (the one in view until
 * another is chosen), what to include, 'Expires', the reader's 'Language' and the optional
 * passcode; each checked before the link is made, then the made link with the words it goes
 * to its reader with.
 */
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_SHARE_LINK_EXPIRY_DAYS,
  LINK_PASSCODE_MESSAGE,
  SHAREABLE_RECORD_TYPES,
  type ShareableRecordType,
  type ShareLinkExpiryDays,
} from '../../../shared/share-links';
import type { LanguageCode } from '../../../shared/i18n/languages';
import type { Translator } from '../../../shared/i18n/translate';
import { toasts } from '../../../shared/messages';
import { currentLanguageCode } from '../../lib/i18n';
import { showError } from '../../lib/toast';
import { linkLanguage } from '../../viewer/viewer-url';
import { useChosenPerson } from '../family-members/person-select';
import { useUnits } from '../profile-settings/profile-queries';
import { readerTranslator } from './reader-words';
import { sharedDocumentsProblem, useShareableDocuments } from './share-documents';
import { useCreateShareLink, type CreatedShareLink } from './share-link-queries';

/**
 * The link with the words it goes to its reader with, in the reader's language: the mail's
 * subject and the short message.
 */
export interface MadeLink extends CreatedShareLink {
  subject: string;
  message: string;
}

function readerWords(
  reader: Translator,
  personName: string,
  link: string,
  days: number,
): Pick<MadeLink, 'subject' | 'message'> {
  return {
    subject: reader.t('Health records of {name}', { name: personName }),
    message: reader.t(
      "Here are {name}'s health records from Kin Health (the link expires in {days}): {link}",
      { name: personName, days: reader.t('{count} days', { count: days }), link },
    ),
  };
}

/** A problem, shown under the field it is about. */
export interface LinkProblem {
  field: 'include' | 'documents' | 'passcode';
  message: string;
}

export function useShareLink() {
  const { t } = useTranslation();
  // The person in view (CONTRACT.md §6), until another is chosen here.
  const { persons, personId, choose: setChosenPerson } = useChosenPerson({ exportable: true });
  const personName = (persons.find((p) => p.id === personId)?.label ?? '').replace(
    / \((you|shared by .*)\)$/,
    '',
  );
  const [types, setTypes] = useState<readonly ShareableRecordType[]>(SHAREABLE_RECORD_TYPES);
  const [wholeFamilyContacts, setWholeFamilyContacts] = useState(false);
  const documents = useShareableDocuments(personId);
  // By id; only those of the person now chosen count (another person's ticks do not).
  const [documentIds, setDocumentIds] = useState<ReadonlySet<string>>(new Set());
  const chosenDocuments = documents.filter((document) => documentIds.has(document.id));
  const [days, setDays] = useState<ShareLinkExpiryDays>(DEFAULT_SHARE_LINK_EXPIRY_DAYS);
  // The reader's language: by default the one the app speaks now.
  const [language, setLanguage] = useState<LanguageCode>(currentLanguageCode);
  const [passcode, setPasscode] = useState('');
  const [problem, setProblem] = useState<LinkProblem>();
  const [created, setCreated] = useState<MadeLink | null>(null);
  const create = useCreateShareLink();
  const units = useUnits();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (types.length === 0) {
      return setProblem({ field: 'include', message: t('Choose at least one kind of record') });
    }
    const tooLarge = sharedDocumentsProblem(chosenDocuments);
    if (tooLarge) return setProblem({ field: 'documents', message: t(tooLarge) });
    if (passcode && passcode.length < 4) {
      return setProblem({ field: 'passcode', message: t(LINK_PASSCODE_MESSAGE) });
    }
    setProblem(undefined);
    create.mutate(
      {
        personId,
        personName,
        types,
        wholeFamilyContacts: wholeFamilyContacts && types.includes('contact'),
        documentIds: chosenDocuments.map((document) => document.id),
        expiresInDays: days,
        passcode,
        units,
        language: linkLanguage(language, currentLanguageCode()),
      },
      {
        onSuccess: (made) =>
          void readerTranslator(language).then((reader) =>
            setCreated({ ...made, ...readerWords(reader, personName, made.link, days) }),
          ),
        onError: (error) => showError(t(toasts.error), error),
      },
    );
  };

  const toggle = (type: ShareableRecordType, on: boolean) =>
    setTypes((current) =>
      on
        ? SHAREABLE_RECORD_TYPES.filter((t) => t === type || current.includes(t))
        : current.filter((t) => t !== type),
    );

  return {
    personId,
    setChosenPerson,
    types,
    toggle,
    wholeFamilyContacts,
    setWholeFamilyContacts,
    documents,
    documentIds,
    setDocumentIds,
    days,
    setDays,
    language,
    setLanguage,
    passcode,
    setPasscode,
    problem,
    created,
    create,
    submit,
  };
}

export type ShareLink = ReturnType<typeof useShareLink>;
