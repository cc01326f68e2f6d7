/**
 * The owner's share links: made in this browser (the person's bundle, with the documents
 * chosen, or their emergency card's records, is fetched, encrypted
 * with a fresh random key, and only the ciphertext is uploaded; the key goes into the
 * link's fragment), listed, their access logs, revoked. A link names the language its
 * viewer opens in, the reader's (CONTRACT §6), before its fragment (viewer-url.ts).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CompactEncrypt } from 'jose';
import type { UnitSystem } from '../../../shared/units';
import type { LanguageCode } from '../../../shared/i18n/languages';
import { tr } from '../../../shared/i18n/translate';
import { SHARE_UNITS_TAG_SYSTEM } from '../../../shared/fhir-extensions';
import {
  MAX_SHARE_LINK_JWE_CHARS,
  SHARE_LABEL_MAX,
  SHARED_RECORDS_TOO_LARGE,
  type ShareableRecordType,
  type ShareLinkExpiryDays,
} from '../../../shared/share-links';
import {
  EMERGENCY_CARD_EXPIRY_DAYS,
  emergencyCardLabel,
  type EMERGENCY_CARD_SCOPE,
} from '../../../shared/emergency-card';
import { shareLinksApi } from './share-links-api';
import { recordsLabel, viewerLink } from '../../viewer/viewer-url';

const keys = {
  all: ['share-links'] as const,
  accesses: (id: string) => ['share-links', id, 'accesses'] as const,
};

export interface NewShareLink {
  personId: string;
  personName: string;
  types: readonly ShareableRecordType[];
  /** The person's documents chosen to go with the records, by id. */
  documentIds?: readonly string[];
  /** The whole family's contacts too, beside the person's own. */
  wholeFamilyContacts?: boolean;
  expiresInDays: ShareLinkExpiryDays;
  passcode: string;
  /** The owner's Units, which the viewer shows the vitals in. */
  units?: UnitSystem;
  /** The reader's language, which the viewer speaks; absent, the reader's browser decides. */
  language?: LanguageCode | null;
}

/** An emergency card's link: the card's records only, for a year (decision 0063). */
export interface NewEmergencyCardLink {
  purpose: typeof EMERGENCY_CARD_SCOPE;
  personId: string;
  personName: string;
  units?: UnitSystem;
}

/** The bundle with the owner's Units in its `meta` when they are not metric (the default). */
export function withUnitsTag(bundle: string, units: UnitSystem | undefined): string {
  if (units !== 'us') return bundle;
  const parsed = JSON.parse(bundle) as { meta?: { tag?: unknown[] } };
  const meta = parsed.meta ?? {};
  meta.tag = [...(meta.tag ?? []), { system: SHARE_UNITS_TAG_SYSTEM, code: units }];
  return JSON.stringify({ ...parsed, meta });
}

function base64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export interface CreatedShareLink {
  id: string;
  /** The viewer URL holding the `shlink:/` payload. */
  link: string;
  /** When the link stops opening, as the server set it (an ISO timestamp). */
  expiresAt: string;
}

/** Makes a link. */
export async function createShareLink(
  input: NewShareLink | NewEmergencyCardLink,
): Promise<CreatedShareLink> {
  const card = 'purpose' in input;
  const bundle = withUnitsTag(
    card
      ? await shareLinksApi.bundle(input.personId, [], { scope: input.purpose })
      : await shareLinksApi.bundle(input.personId, input.types, {
          wholeFamilyContacts: input.wholeFamilyContacts,
          documentIds: input.documentIds,
        }),
    input.units,
  );
  const key = crypto.getRandomValues(new Uint8Array(32));
  const jwe = await new CompactEncrypt(new TextEncoder().encode(bundle))
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', cty: 'application/fhir+json' })
    .encrypt(key);
  // Refused here rather than after the upload: nothing is sent that the server would refuse.
  if (jwe.length > MAX_SHARE_LINK_JWE_CHARS) throw new Error(tr(SHARED_RECORDS_TOO_LARGE));
  // In English, as the access log keeps it: the viewer says it in the reader's language.
  const label = (
    card ? emergencyCardLabel(input.personName) : recordsLabel(input.personName)
  ).slice(0, SHARE_LABEL_MAX);
  const created = await shareLinksApi.create({
    person_id: input.personId,
    ...(card
      ? { expires_in_days: EMERGENCY_CARD_EXPIRY_DAYS, purpose: input.purpose }
      : { expires_in_days: input.expiresInDays, passcode: input.passcode || undefined }),
    label,
    jwe,
  });
  // An emergency card's QR code names no language: whoever scans it reads their own.
  const link = viewerLink(
    window.location.origin,
    {
      url: created.url,
      key: base64Url(key),
      exp: created.exp,
      ...(created.flag ? { flag: created.flag } : {}),
      label: created.label,
      v: 1,
    },
    card ? null : input.language,
  );
  return { id: created.id, link, expiresAt: new Date(created.exp * 1000).toISOString() };
}

export function useShareLinks(enabled = true) {
  return useQuery({ queryKey: keys.all, queryFn: shareLinksApi.list, enabled });
}

export function useCreateShareLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createShareLink,
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.all }),
  });
}

export function useShareLinkAccesses(id: string, enabled: boolean) {
  return useQuery({
    queryKey: keys.accesses(id),
    queryFn: () => shareLinksApi.accesses(id),
    enabled,
  });
}

export function useRevokeShareLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: shareLinksApi.revoke,
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.all }),
  });
}
