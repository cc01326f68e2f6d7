/**
 * The typed client of the API. Every call goes to the same origin with the session cookie;
 * a refusal becomes an ApiError carrying the server's own message.
 */
import { ApiError } from '../../shared/api-error';
import type { Profile, SignInInput, SignUpInput } from '../../shared/auth';
import type { ImportSummary } from '../../shared/data-export';
import type {
  ActiveSession,
  FreshProof,
  SecurityActivityEntry,
  TwoFactorFactor,
} from '../../shared/account-security';
import type { FamilyMember, FamilyMemberInput } from '../../shared/family-members';
import type {
  RecordDefinition,
  RecordInput,
  RecordPage,
  StoredRecord,
} from '../../shared/records/definition';
import type { TimelinePage } from '../../shared/timeline';

type Listener = () => void;
const unauthenticatedListeners = new Set<Listener>();

/** Called whenever the server says the session is gone, so the app can send the user to /auth. */
export function onUnauthenticated(listener: Listener): () => void {
  unauthenticatedListeners.add(listener);
  return () => unauthenticatedListeners.delete(listener);
}

const NETWORK_ERROR = 'Could not reach the server. Check your connection and try again.';

async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/api${path}`, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, NETWORK_ERROR);
  }
  if (response.status === 204) return undefined as T;
  const data: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const { message, field } = (data ?? {}) as { message?: string; field?: string };
    if (response.status === 401 && !path.startsWith('/auth/')) {
      for (const listener of unauthenticatedListeners) listener();
    }
    throw new ApiError(response.status, message || response.statusText || 'Request failed', field);
  }
  return data as T;
}

function queryString(params: Record<string, string | number | undefined>): string {
  const entries = Object.entries(params).filter(
    (entry): entry is [string, string | number] => entry[1] !== undefined && entry[1] !== '',
  );
  return entries.length ? `?${new URLSearchParams(entries.map(([k, v]) => [k, String(v)]))}` : '';
}

export interface SessionData {
  session: { id: string; expiresAt: string };
  user: { id: string; email: string; name: string };
}

/** A sign-in that still needs its second step answers with `twoFactorRedirect`. */
export interface SignInResult {
  twoFactorRedirect?: boolean;
  twoFactorMethods?: string[];
}

export const authApi = {
  getSession: () => request<SessionData | null>('GET', '/auth/get-session'),
  signIn: (input: SignInInput) => request<SignInResult>('POST', '/auth/sign-in/email', input),
  /** The second sign-in step: a code from the authenticator app, or a backup code. */
  verifyAuthenticationCode: (code: string) =>
    request<unknown>('POST', '/auth/two-factor/verify-totp', { code }),
  verifyBackupCode: (code: string) =>
    request<unknown>('POST', '/auth/two-factor/verify-backup-code', { code }),
  signUp: (input: SignUpInput) => request<unknown>('POST', '/auth/sign-up/email', input),
  signOut: () => request<unknown>('POST', '/auth/sign-out', {}),
};

export const profileApi = {
  get: () => request<Profile>('GET', '/profile'),
  update: (full_name: string) => request<Profile>('PUT', '/profile', { full_name }),
  deleteAccount: (proof: FreshProof) => request<void>('DELETE', '/account', proof),
};

export const dataApi = {
  /** Where the browser downloads the user's data from (a same-origin link, cookie and all). */
  exportUrl: '/api/export',
  import: (file: unknown) => request<ImportSummary>('POST', '/import', file),
};

export interface TwoFactorEnrolment {
  /** The otpauth:// URI an authenticator app reads from the QR code. */
  totpURI: string;
  backupCodes: string[];
}

export const securityApi = {
  factors: () => request<TwoFactorFactor[]>('GET', '/factors'),
  /** Starts turning two-factor sign-in on; it is on once `confirmTwoFactor` succeeds. */
  enableTwoFactor: (password: string) =>
    request<TwoFactorEnrolment>('POST', '/auth/two-factor/enable', { password }),
  confirmTwoFactor: (code: string) =>
    request<unknown>('POST', '/auth/two-factor/verify-totp', { code }),
  disableTwoFactor: (password: string) =>
    request<unknown>('POST', '/auth/two-factor/disable', { password }),
  sessions: () => request<ActiveSession[]>('GET', '/sessions'),
  endSession: (id: string) => request<void>('DELETE', `/sessions/${encodeURIComponent(id)}`),
  endOtherSessions: () => request<void>('POST', '/sessions/revoke-others', {}),
  activity: () => request<SecurityActivityEntry[]>('GET', '/security-activity'),
};

export const familyMembersApi = {
  list: () => request<FamilyMember[]>('GET', '/family-members'),
  create: (input: FamilyMemberInput) => request<FamilyMember>('POST', '/family-members', input),
  update: (id: string, input: FamilyMemberInput) =>
    request<FamilyMember>('PUT', `/family-members/${encodeURIComponent(id)}`, input),
  remove: (id: string) => request<void>('DELETE', `/family-members/${encodeURIComponent(id)}`),
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

export const timelineApi = {
  list: (params: { member?: string; cursor?: string }) =>
    request<TimelinePage>('GET', `/timeline${queryString(params)}`),
};
