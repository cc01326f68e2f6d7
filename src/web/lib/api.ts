/**
 * The client of the product's API (calls go through api-request.ts: this origin, the session
 * cookie, a refusal made an ApiError with the server's own message). The product's own routes
 * are typed by the server's route chain itself (Hono's RPC types, `hc<ProductRoutes>`: a
 * type-only import, erased from the bundle); a record type's routes by its definition. The
 * sign-in calls (better-auth's) are in auth-api.ts, so the sign-in screen loads none of this.
 */
import type { LanguageCode } from '../../shared/i18n/languages';
import type { PushSubscriptionInput, ReminderSettings } from '../../shared/reminders';
import type { NotificationChannel } from '../../shared/notification-channels';
import { hc } from 'hono/client';
import type { ProductRoutes } from '../../server/api-routes';
import { ApiError } from '../../shared/api-error';
import type { UnitSystem } from '../../shared/units';
import type { VitalsTrendAnswer } from '../../shared/vitals-trend';
import type { EMERGENCY_CARD_SCOPE, EmergencyCard } from '../../shared/emergency-card';
import { emergencyCardPath } from '../service-worker/cache-names';
import type { EmailChangeRequest, PasswordChangeInput } from '../../shared/account-recovery';
import type { FreshProof } from '../../shared/account-security';
import type { FamilyMemberInput } from '../../shared/family-members';
import type { AcceptGrantInput, GrantInput } from '../../shared/household';
import type {
  VaccineScheduleAnswer,
  VaccineTracking,
} from '../../shared/vaccines/schedule-setting';
import type { CalendarLinkInput } from '../../shared/calendar';
import type { ConnectRequest } from '../../shared/connections';
import type { DoseMarkInput, RefillInput } from '../../shared/dose-requests';
import type { CreateShareLinkInput } from '../../shared/share-links';
import type { LabPanelInput } from '../../shared/labs/lab-panel';
import type {
  AttachableRecords,
  DocumentPage,
  DocumentTextAnswer,
  DocumentUsage,
  StoredDocument,
} from '../../shared/documents';
import type { DocumentEdit, DocumentRecord } from '../../shared/document-upload';
import { MAX_PAGE_SIZE, WHOLE_FAMILY_CONTACTS } from '../../shared/constants';
import { localToday } from '../../shared/date-values';
import { answer, NETWORK_ERROR, queryString, refusal, request, send } from './api-request';
import { requestLanguageTag } from './i18n';
import { key } from '../../shared/i18n/translate';
import type {
  RecordDefinition,
  RecordInput,
  RecordPage,
  StoredRecord,
} from '../../shared/records/definition';

const UPLOAD_FAILED = key('Upload failed');

const product = hc<ProductRoutes>('/api', { fetch: send });

/** The WebAuthn options and answers, as JSON (SimpleWebAuthn's shapes, passed through). */
type WebAuthnJson = Record<string, unknown>;

/**
 * Passkeys (CONTRACT.md §5): the ceremonies are better-auth's, the list the product's; an
 * addition's options come after a fresh proof (decision 0048).
 */
export const passkeysApi = {
  list: () => answer(product.passkeys.$get()),
  rename: (id: string, name: string) =>
    answer(product.passkeys[':id'].$patch({ param: { id }, json: { name } })),
  remove: (id: string, proof: FreshProof) =>
    answer(product.passkeys[':id'].$delete({ param: { id }, json: proof })),
  registrationOptions: (proof: FreshProof) =>
    request<WebAuthnJson>('POST', '/passkeys/registration-options', proof),
  /** Without a name, the server names the passkey by this device. */
  register: (response: WebAuthnJson) =>
    request<unknown>('POST', '/auth/passkey/verify-registration', { response }),
  signInOptionsChallenge: () =>
    request<WebAuthnJson>('GET', '/auth/passkey/generate-authenticate-options'),
  signIn: (response: WebAuthnJson) =>
    request<unknown>('POST', '/auth/passkey/verify-authentication', { response }),
};

export const profileApi = {
  get: () => answer(product.profile.$get()),
  update: (full_name: string) => answer(product.profile.$put({ json: { full_name } })),
  setVaccineSchedule: (vaccine_schedule: string) =>
    answer(product.profile.$patch({ json: { vaccine_schedule } })),
  setUnits: (units: UnitSystem) => answer(product.profile.$patch({ json: { units } })),
  setLanguage: (language: LanguageCode) => answer(product.profile.$patch({ json: { language } })),
  deleteAccount: (proof: FreshProof) => answer(product.account.$delete({ json: proof })),
  /** What a fresh proof of this account takes: a password, a code, or a recent sign-in. */
  freshProofNeeds: () => answer(product['fresh-proof'].$get()),
  /** Ends every session (this one too) and removes every passkey. */
  signOutEverywhere: (proof: FreshProof) =>
    answer(product.account['sign-out-everywhere'].$post({ json: proof })),
};

export const vitalsTrendApi = {
  /** Every vitals entry of one person, oldest first, with their date of birth. */
  get: (personId: string) =>
    request<VitalsTrendAnswer>('GET', `/persons/${encodeURIComponent(personId)}/vitals`),
};

export const emergencyCardApi = {
  /** The person's emergency card as of the reader's date (kept on the device by the worker). */
  get: async (personId: string): Promise<EmergencyCard> =>
    (await send(`${emergencyCardPath(personId)}${queryString({ today: localToday() })}`)).json(),
};

export const vaccineScheduleApi = {
  /** A person's vaccine plan, its statuses as of the browser's `today`. */
  get: (personId: string, today: string) =>
    request<VaccineScheduleAnswer>(
      'GET',
      `/persons/${encodeURIComponent(personId)}/vaccine-schedule${queryString({ today })}`,
    ),
  /** The schedule turned on or off for one of the user's members. */
  setTracking: (personId: string, tracked: boolean) =>
    request<VaccineTracking>(
      'PUT',
      `/persons/${encodeURIComponent(personId)}/vaccine-schedule/tracking`,
      { tracked } satisfies VaccineTracking,
    ),
};

/** A download's bytes as they arrive, and its file name from the server. */
async function download(
  path: string,
  onProgress: (bytes: number) => void,
): Promise<{ blob: Blob; fileName: string | null }> {
  const response = await send(`/api${path}`);
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let bytes = 0;
  const reader = response.body?.getReader();
  for (;;) {
    const next = reader ? await reader.read() : { done: true as const, value: undefined };
    if (next.done) break;
    chunks.push(next.value);
    bytes += next.value.byteLength;
    onProgress(bytes);
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  return {
    blob: new Blob(chunks, { type: response.headers.get('content-type') ?? undefined }),
    fileName: /filename="([^"]+)"/.exec(disposition)?.[1] ?? null,
  };
}

export const dataApi = {
  /** Where the browser downloads the user's data from (a same-origin link, cookie and all). */
  exportUrl: '/api/export',
  /** The user's data as one JSON file (GET /api/export), fetched so that a refusal is seen. */
  downloadExport: (onProgress: (bytes: number) => void) => download('/export', onProgress),
  /** One person's records as a FHIR R4 Bundle ($everything), with progress as it streams. */
  downloadFhir: (personId: string, onProgress: (bytes: number) => void) =>
    download(
      `/fhir/Patient/${encodeURIComponent(personId)}/$everything?today=${localToday()}`,
      onProgress,
    ),
  /** One person's health summary as a PDF, dated and timed as the reader's browser is. */
  downloadSummaryPdf: (
    personId: string,
    onProgress: (bytes: number) => void,
    options: { wholeFamilyContacts?: boolean } = {},
  ) =>
    download(
      `/persons/${encodeURIComponent(personId)}/summary.pdf${queryString({
        today: localToday(),
        tz: Intl.DateTimeFormat().resolvedOptions().timeZone,
        contacts: options.wholeFamilyContacts ? WHOLE_FAMILY_CONTACTS : undefined,
      })}`,
      onProgress,
    ),
};

export interface DocumentListQuery {
  member?: string;
  document_type?: string;
  record_type?: string;
  record_id?: string;
  offset?: number;
  /** How many, at most 100 (50 by default). */
  limit?: number;
}

/** What an upload says of its file (the body is the file itself). */
export interface DocumentUploadFields {
  title: string;
  document_type: string;
  document_date?: string;
  family_member_id?: string;
  file_name?: string;
  record_type?: string;
  record_id?: string;
}

export const documentsApi = {
  list: (query: DocumentListQuery) =>
    request<DocumentPage>('GET', `/documents${queryString({ ...query })}`),
  get: (id: string) => request<StoredDocument>('GET', `/documents/${encodeURIComponent(id)}`),
  remove: (id: string) => request<void>('DELETE', `/documents/${encodeURIComponent(id)}`),
  /** Its title, type, date, person and the records it is attached to. */
  update: (id: string, edit: DocumentEdit) =>
    request<StoredDocument>('PUT', `/documents/${encodeURIComponent(id)}`, edit),
  /** Attaches it to one more record of its person's. */
  attach: (id: string, record: DocumentRecord) =>
    request<StoredDocument>('POST', `/documents/${encodeURIComponent(id)}/records`, record),
  /** The records a document of this person may be attached to. */
  attachableRecords: (personId: string) =>
    request<AttachableRecords>('GET', `/documents/records${queryString({ person: personId })}`),
  /** The document's text, read from its text layer or by OCR, once it is read. */
  text: (id: string) =>
    request<DocumentTextAnswer>('GET', `/documents/${encodeURIComponent(id)}/text`),
  usage: () => request<DocumentUsage>('GET', '/documents/usage'),
  /**
   * Sends a file as it is (no form encoding), telling how much of it has gone as it goes:
   * XMLHttpRequest, as fetch reports no upload progress.
   */
  upload: (
    file: Blob,
    fields: DocumentUploadFields,
    onProgress: (sent: number, total: number) => void,
  ): Promise<StoredDocument> =>
    new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', `/api/documents${queryString({ ...fields })}`);
      xhr.setRequestHeader('Accept-Language', requestLanguageTag());
      xhr.upload.onprogress = (event) => onProgress(event.loaded, event.total || file.size);
      xhr.onerror = () => reject(new ApiError(0, NETWORK_ERROR));
      xhr.onload = () => {
        let body: unknown = null;
        try {
          body = JSON.parse(xhr.responseText);
        } catch {
          // Not JSON: a proxy's page, say.
        }
        if (xhr.status === 201) {
          resolve(body as StoredDocument);
          return;
        }
        reject(refusal(xhr.status, xhr.statusText, body, '/api/documents', UPLOAD_FAILED));
      };
      xhr.send(file);
    }),
};

export const calendarApi = {
  get: () => answer(product['calendar-link'].$get()),
  create: (input: CalendarLinkInput) => answer(product['calendar-link'].$post({ json: input })),
  revoke: () => answer(product['calendar-link'].$delete()),
};

/** Patient portals (CONTRACT §6 'Connections'), as shared/connections.ts describes the routes. */
export const connectionsApi = {
  list: () => answer(product.connections.$get()),
  connect: (input: ConnectRequest) => answer(product.connections.$post({ json: input })),
  sync: (id: string) => answer(product.connections[':id'].sync.$post({ param: { id } })),
  reconnect: (id: string) => answer(product.connections[':id'].reconnect.$post({ param: { id } })),
  disconnect: (id: string) => answer(product.connections[':id'].$delete({ param: { id } })),
};

export const shareLinksApi = {
  list: () => answer(product['share-links'].$get()),
  create: (input: CreateShareLinkInput) => answer(product['share-links'].$post({ json: input })),
  accesses: (id: string) => answer(product['share-links'][':id'].accesses.$get({ param: { id } })),
  revoke: (id: string) => answer(product['share-links'][':id'].$delete({ param: { id } })),
  /** A person's bundle of the chosen types (and overdue vaccine doses), as the owner's browser encrypts it. */
  bundle: async (
    personId: string,
    types: readonly string[],
    options: {
      wholeFamilyContacts?: boolean;
      documentIds?: readonly string[];
      /** Only what the person's emergency card holds, whatever `types` says. */
      scope?: typeof EMERGENCY_CARD_SCOPE;
    } = {},
  ): Promise<string> => {
    const response = await send(
      `/api/fhir/Patient/${encodeURIComponent(personId)}/$everything${queryString({
        today: localToday(),
        types: types.join(','),
        // The documents the owner chose, each with its file (and a HEIC photo's JPEG).
        documents: options.documentIds?.join(','),
        contacts: options.wholeFamilyContacts ? WHOLE_FAMILY_CONTACTS : undefined,
        // The doses the owner's schedule has overdue, for the viewer's 'Vaccine Doses Overdue'.
        vaccines: options.scope ? undefined : 'overdue',
        scope: options.scope,
      })}`,
    );
    return response.text();
  },
};

export const remindersApi = {
  get: () => answer(product.reminders.$get()),
  saveSettings: (input: ReminderSettings) =>
    answer(product.reminders.settings.$put({ json: input })),
  subscribe: (input: PushSubscriptionInput) =>
    answer(product.reminders.subscription.$put({ json: input })),
  unsubscribe: (endpoint: string) =>
    answer(product.reminders.unsubscribe.$post({ json: { endpoint } })),
};

export const notificationChannelsApi = {
  get: () => answer(product['notification-channels'].$get()),
  saveNtfy: (url: string) => answer(product['notification-channels'].ntfy.$put({ json: { url } })),
  saveWebhook: (url: string) =>
    answer(product['notification-channels'].webhook.$put({ json: { url } })),
  newWebhookSecret: () => answer(product['notification-channels'].webhook.secret.$post()),
  remove: (channel: NotificationChannel) =>
    answer(product['notification-channels'][':channel'].$delete({ param: { channel } })),
  test: (channel: NotificationChannel) =>
    answer(product['notification-channels'][':channel'].test.$post({ param: { channel } })),
};

export interface TwoFactorEnrolment {
  /** The otpauth:// URI an authenticator app reads from the QR code. */
  totpURI: string;
  backupCodes: string[];
}

export const securityApi = {
  /** The current password and a new one; every other session ends. */
  changePassword: (input: PasswordChangeInput) =>
    request<unknown>('POST', '/auth/change-password', input),
  /**
   * Sends a confirmation link to the new address, after a fresh proof; the email changes
   * when it is followed.
   */
  changeEmail: (input: EmailChangeRequest) => answer(product.account.email.$post({ json: input })),
  factors: () => answer(product.factors.$get()),
  /** Starts turning two-factor sign-in on; it is on once `confirmTwoFactor` succeeds. */
  enableTwoFactor: (password: string) =>
    request<TwoFactorEnrolment>('POST', '/auth/two-factor/enable', { password }),
  confirmTwoFactor: (code: string) =>
    request<unknown>('POST', '/auth/two-factor/verify-totp', { code }),
  disableTwoFactor: (password: string) =>
    request<unknown>('POST', '/auth/two-factor/disable', { password }),
  sessions: () => answer(product.sessions.$get()),
  endSession: (id: string) => answer(product.sessions[':id'].$delete({ param: { id } })),
  endOtherSessions: () => answer(product.sessions['revoke-others'].$post()),
  activity: () => answer(product['security-activity'].$get()),
};

export const familyMembersApi = {
  list: () => answer(product['family-members'].$get()),
  create: (input: FamilyMemberInput) => answer(product['family-members'].$post({ json: input })),
  update: (id: string, input: FamilyMemberInput) =>
    answer(product['family-members'][':id'].$put({ param: { id }, json: input })),
  remove: (id: string) => answer(product['family-members'][':id'].$delete({ param: { id } })),
};

export const householdApi = {
  get: () => answer(product.household.$get()),
  grant: (input: GrantInput) => answer(product.household.grants.$post({ json: input })),
  accept: (input: AcceptGrantInput) => answer(product.household.accept.$post({ json: input })),
  remove: (id: string) => answer(product.household.grants[':id'].$delete({ param: { id } })),
};

export interface RecordListParams {
  view?: string;
  member?: string;
  today?: string;
  limit?: number;
  offset?: number;
}

/** The client of one record type, typed by its definition. */
export function recordsApi<D extends RecordDefinition>(definition: D) {
  const base = `/${definition.path}`;
  const one = (id: string) => `${base}/${encodeURIComponent(id)}`;
  return {
    list: (params: RecordListParams = {}) =>
      request<RecordPage<StoredRecord<D>>>('GET', `${base}${queryString({ ...params })}`),
    get: (id: string) => request<StoredRecord<D>>('GET', one(id)),
    create: (input: RecordInput<D>) => request<StoredRecord<D>>('POST', base, input),
    update: (id: string, input: RecordInput<D>) => request<StoredRecord<D>>('PUT', one(id), input),
    remove: (id: string) => request<void>('DELETE', one(id)),
  };
}

/**
 * A vitals row as the generic list route answers it (the columns of the `vitals` table), with
 * only what the growth screen reads.
 */
export interface VitalsRow {
  id: string;
  family_member_id: string | null;
  measured_at: string;
  weight_kg: number | null;
  height_cm: number | null;
  head_circumference_cm: number | null;
}

export const growthApi = {
  /**
   * One page of a family member's vitals, from the generic list route of the 'vital' record
   * type. INTEGRATION: once the vitals definition is merged this may become
   * `recordsApi(vitalDefinition).list({ member, limit, offset })`; the route and shape are the same.
   */
  vitalsPage: (member: string, offset: number) =>
    request<RecordPage<VitalsRow>>(
      'GET',
      `/vitals${queryString({ member, limit: MAX_PAGE_SIZE, offset })}`,
    ),
};

export const dosesApi = {
  today: (today: string) => answer(product.doses.$get({ query: { today } })),
  mark: (input: DoseMarkInput) => answer(product.doses.$post({ json: input })),
  undo: (id: string) => answer(product.doses[':id'].$delete({ param: { id } })),
  adherence: (medicationId: string, today: string) =>
    answer(
      product.doses.adherence[':medicationId'].$get({ param: { medicationId }, query: { today } }),
    ),
  refill: (medicationId: string, input: RefillInput) =>
    answer(product.doses.refill[':medicationId'].$post({ param: { medicationId }, json: input })),
};

export const labResultsApi = {
  /** A panel: several results of one date and lab, saved all or none. */
  savePanel: (input: LabPanelInput) => answer(product.labs.panel.$post({ json: input })),
  /** Every result of the same test for the same person, newest first. */
  trend: (id: string) => answer(product.labs[':id'].trend.$get({ param: { id } })),
};

export const searchApi = {
  search: (query: { q: string; member?: string; limit?: number }) =>
    answer(
      product.search.$get({
        query: {
          q: query.q,
          member: query.member,
          limit: query.limit === undefined ? undefined : String(query.limit),
        },
      }),
    ),
};

export const timelineApi = {
  list: (query: { member?: string; cursor?: string }) => answer(product.timeline.$get({ query })),
  /** The vaccine doses due in the next 30 days or overdue, as of the browser's `today`. */
  vaccineDoses: (today: string) =>
    answer(product.timeline['vaccine-doses'].$get({ query: { today } })),
};
