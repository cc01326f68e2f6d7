import type { LanguageCode } from '../../shared/i18n/languages';
import { hc } from 'hono/client';
import type { ProductRoutes } from '../../server/api-routes';
import type { UnitSystem } from '../../shared/units';
import type { FreshProof } from '../../shared/account-security';
import type { FamilyMemberInput } from '../../shared/family-members';
import type { AcceptGrantInput, GrantInput } from '../../shared/household';
import type { DoseMarkInput, RefillInput } from '../../shared/dose-requests';
import { answer, queryString, request, send } from './api-request';
import type {
  RecordDefinition,
  RecordInput,
  RecordPage,
  StoredRecord,
} from '../../shared/records/definition';

/** The product's routes, typed by the server's route chain. */
export const product = hc<ProductRoutes>('/api', { fetch: send });

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
