/**
 * Reading a patient's records from a portal's FHIR API, as a SMART patient app may: the
 * Patient, then each kind the product keeps, searched by patient and followed page by page,
 * and each document's file fetched where the portal keeps it apart (a Binary). What comes
 * back is one collection Bundle, the shape the FHIR import already reads (fhir-import.ts).
 *
 * Bounded: pages per search, bytes of resources and of files, and the portal's own pages
 * followed only on the portal's own origin. A kind the portal does not share (403, 404, 400)
 * is left out and said; a token that stopped working is renewed once (`renew`).
 */
import type { Bundle, BundleEntry, DocumentReference, Resource } from '@medplum/fhirtypes';
import { MAX_DOCUMENT_BYTES } from '../../shared/documents';
import { PortalError, portalFetch, PORTAL_UNREACHABLE } from './portal-http';

/** What is searched, by patient: each kind the product keeps, and what they name. */
export const PORTAL_SEARCHES: ReadonlyArray<{ type: string; query: string }> = [
  { type: 'AllergyIntolerance', query: '' },
  { type: 'Condition', query: '' },
  { type: 'MedicationRequest', query: '&_include=MedicationRequest:medication' },
  { type: 'MedicationStatement', query: '' },
  { type: 'Immunization', query: '' },
  { type: 'Observation', query: '&category=laboratory' },
  { type: 'Observation', query: '&category=vital-signs' },
  { type: 'Encounter', query: '' },
  { type: 'Procedure', query: '' },
  { type: 'DocumentReference', query: '' },
  { type: 'Coverage', query: '&_include=Coverage:payor' },
];

/** The most pages one search is followed for. */
export const MAX_PAGES = 100;
/** The most a patient's resources may come to, and their documents' files. */
export const MAX_RESOURCE_BYTES = 64 * 1024 * 1024;
export const MAX_FILE_BYTES = 256 * 1024 * 1024;

export interface PortalReading {
  bundle: Bundle;
  /** Kinds the portal did not share, and files not fetched: said after the sync. */
  notShared: string[];
}

export interface PortalReadOptions {
  fhirBaseUrl: string;
  patientId: string;
  /** The access token to read with. */
  token: () => string;
  /** Renews the access token once the portal says it stopped working; false if it cannot. */
  renew: () => Promise<boolean>;
  signal?: AbortSignal;
}

type Json = Record<string, unknown>;

/** An OperationOutcome's words, if the answer is one. */
function outcomeOf(body: unknown): string | null {
  const outcome = body as {
    resourceType?: string;
    issue?: { diagnostics?: string; details?: { text?: string } }[];
  };
  if (outcome?.resourceType !== 'OperationOutcome') return null;
  const issue = outcome.issue?.[0];
  return issue?.diagnostics ?? issue?.details?.text ?? null;
}

/** A FHIR Binary's bytes (base64) and type, when the answer is one. */
function binaryOf(bytes: Buffer): { data: string; contentType?: string } | null {
  try {
    const binary = JSON.parse(bytes.toString('utf8')) as Json;
    return binary.resourceType === 'Binary' && typeof binary.data === 'string'
      ? {
          data: binary.data,
          contentType: typeof binary.contentType === 'string' ? binary.contentType : undefined,
        }
      : null;
  } catch {
    return null;
  }
}

export async function readPortalRecords(options: PortalReadOptions): Promise<PortalReading> {
  const base = options.fhirBaseUrl;
  const origin = new URL(base).origin;
  let resourceBytes = 0;
  let fileBytes = 0;

  /** One GET with the bearer token, renewed once if the portal says it stopped working. */
  async function get(address: string, accept: string, maxBytes: number): Promise<Response> {
    for (let attempt = 0; ; attempt += 1) {
      const response = await portalFetch(
        address,
        { headers: { accept, authorization: `Bearer ${options.token()}` } },
        { maxBytes, signal: options.signal },
      );
      if (response.status !== 401) return response;
      if (attempt > 0 || !(await options.renew())) {
        throw new PortalError('sign-in', '');
      }
    }
  }

  async function readJson(address: string): Promise<{ status: number; body: unknown }> {
    const response = await get(
      address,
      'application/fhir+json',
      MAX_RESOURCE_BYTES - resourceBytes,
    );
    const text = await response.text();
    resourceBytes += Buffer.byteLength(text);
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      if (response.ok) throw new PortalError('refused', "The portal's answer was not FHIR JSON");
    }
    if (response.status >= 500) throw new PortalError('unreachable', PORTAL_UNREACHABLE);
    if (response.status === 429)
      throw new PortalError('refused', 'The portal refused: too many requests; try again later');
    return { status: response.status, body };
  }

  const patient = await readJson(`${base}/Patient/${encodeURIComponent(options.patientId)}`);
  if (patient.status !== 200 || (patient.body as Json | null)?.resourceType !== 'Patient') {
    const reason = outcomeOf(patient.body) ?? `it answered ${patient.status} for the patient`;
    throw new PortalError('refused', `The portal refused: ${reason}`);
  }
  const resources = new Map<string, Resource>();
  const keep = (resource: Resource) => {
    if (!resource.resourceType || resource.resourceType === 'OperationOutcome') return;
    resources.set(`${resource.resourceType}/${resource.id ?? resources.size}`, resource);
  };
  keep(patient.body as Resource);

  const notShared: string[] = [];
  const patientParam = encodeURIComponent(options.patientId);
  for (const search of PORTAL_SEARCHES) {
    let address: string | null = `${base}/${search.type}?patient=${patientParam}${search.query}`;
    for (let page = 0; address && page < MAX_PAGES; page += 1) {
      const answer = await readJson(address);
      if (answer.status !== 200) {
        // Refused with the include: asked again without it, once.
        if (page === 0 && answer.status === 400 && address.includes('_include=')) {
          address = address.replace(/&_include=[^&]*/, '');
          page -= 1;
          continue;
        }
        if (!notShared.includes(search.type)) notShared.push(search.type);
        break;
      }
      const bundle = answer.body as Bundle;
      for (const entry of bundle.entry ?? []) {
        if (entry.resource && entry.search?.mode !== 'outcome') keep(entry.resource);
      }
      const next = bundle.link?.find((link) => link.relation === 'next')?.url;
      address =
        next && URL.canParse(next, base) && new URL(next, base).origin === origin
          ? new URL(next, base).href
          : null;
    }
  }

  // Files kept apart from their DocumentReference, fetched (from the portal only) and inlined.
  for (const resource of resources.values()) {
    if (resource.resourceType !== 'DocumentReference') continue;
    for (const content of (resource as DocumentReference).content ?? []) {
      const attachment = content.attachment;
      if (attachment.data || !attachment.url) continue;
      const address = URL.canParse(attachment.url, `${base}/`)
        ? new URL(attachment.url, `${base}/`)
        : null;
      const room = Math.min(MAX_DOCUMENT_BYTES, MAX_FILE_BYTES - fileBytes);
      if (!address || address.origin !== origin || room <= 0) {
        notShared.push(`a document's file (${attachment.title ?? resource.id ?? 'untitled'})`);
        continue;
      }
      try {
        const response = await get(address.href, attachment.contentType ?? '*/*', room);
        if (!response.ok) throw new PortalError('refused', '');
        const type = response.headers.get('content-type')?.split(';')[0]?.trim();
        const bytes = Buffer.from(await response.arrayBuffer());
        fileBytes += bytes.byteLength;
        // A portal may answer with the Binary resource itself, its bytes in base64.
        const binary = /json/.test(type ?? '') ? binaryOf(bytes) : null;
        attachment.data = binary?.data ?? bytes.toString('base64');
        attachment.contentType ??= binary?.contentType ?? type;
      } catch (error) {
        if (!(error instanceof PortalError) || error.kind === 'sign-in') throw error;
        notShared.push(`a document's file (${attachment.title ?? resource.id ?? 'untitled'})`);
      }
    }
  }

  const entry: BundleEntry[] = [...resources.values()].map((resource) => ({
    fullUrl: `${base}/${resource.resourceType}/${resource.id ?? ''}`,
    resource,
  }));
  return { bundle: { resourceType: 'Bundle', type: 'collection', entry }, notShared };
}
