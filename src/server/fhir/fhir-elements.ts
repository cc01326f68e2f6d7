/**
 * The small FHIR shapes every mapping shares: ids and references inside a bundle, codeable
 * text, codings of the standard systems we use, periods, notes, the product's extensions,
 * the data-absent marker and XHTML narrative; and, to read what other systems write, the
 * words of a concept, names, dates, notes and telecoms. Every record type's mapping
 * (mappings/) uses them in both directions (out and in), so a shape is written and read in
 * one place.
 */
import { v5 } from 'uuid';
import type {
  Annotation,
  CodeableConcept,
  Coding,
  ContactPoint,
  Element,
  Extension,
  HumanName,
  Narrative,
  Period,
  Reference,
  Resource,
} from '@medplum/fhirtypes';
import { isCalendarDate, isTimestamp, toUtcTimestamp } from '../../shared/date-values';
import { KIN_EXTENSION } from '../../shared/fhir-extensions';

/** A JSON object as a file writes one: not an array, not null. */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const SYSTEM = {
  loinc: 'http://loinc.org',
  conditionClinical: 'http://terminology.hl7.org/CodeSystem/condition-clinical',
  allergyClinical: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical',
  actCode: 'http://terminology.hl7.org/CodeSystem/v3-ActCode',
  nullFlavor: 'http://terminology.hl7.org/CodeSystem/v3-NullFlavor',
  coverageClass: 'http://terminology.hl7.org/CodeSystem/coverage-class',
  copayType: 'http://terminology.hl7.org/CodeSystem/coverage-copay-type',
  practitionerRole: 'http://terminology.hl7.org/CodeSystem/practitioner-role',
  organizationType: 'http://terminology.hl7.org/CodeSystem/organization-type',
  recommendationStatus: 'http://terminology.hl7.org/CodeSystem/immunization-recommendation-status',
  absentUnknown: 'http://hl7.org/fhir/uv/ips/CodeSystem/absent-unknown-uv-ips',
  snomed: 'http://snomed.info/sct',
  cvx: 'http://hl7.org/fhir/sid/cvx',
  uri: 'urn:ietf:rfc:3986',
} as const;

export const DATA_ABSENT_REASON = 'http://hl7.org/fhir/StructureDefinition/data-absent-reason';

/** Our extensions' URLs (see src/shared/fhir-extensions.ts). */
export { KIN_EXTENSION };

// A fixed namespace, so that derived ids are the same on every export and every server.
const ID_NAMESPACE = 'b6c1d72e-71e4-44af-b0bd-a0f98189e1c2';
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The id of a resource made from another (a policy's payor, a person's care team). */
export function derivedId(...parts: string[]): string {
  return v5(parts.join('/'), ID_NAMESPACE);
}

/**
 * Where a resource sits in a bundle. Record ids are UUIDs; an account holder's id (from
 * the auth library) may not be, and `urn:uuid:` needs one, so such an id is hashed.
 */
export function fullUrlOf(id: string): string {
  return `urn:uuid:${UUID_PATTERN.test(id) ? id.toLowerCase() : derivedId('id', id)}`;
}

/** A reference to a resource of the same bundle. */
export function referenceTo<T extends Resource = Resource>(id: string): Reference<T> {
  return { reference: fullUrlOf(id) };
}

/** A reference that names what the user typed (a doctor, a place) without a resource. */
export function namedReference<T extends Resource>(
  type: T['resourceType'],
  display: string | null,
): Reference<T> | undefined {
  return display ? { type, display } : undefined;
}

/** The user's words as a concept: text only, since no code was given. */
export function textConcept(text: string | null | undefined): CodeableConcept | undefined {
  return text ? { text } : undefined;
}

export function coding(system: string, code: string, display?: string): Coding {
  return display ? { system, code, display } : { system, code };
}

/** A concept with a standard code and the user's own word for it. */
export function codedConcept(
  system: string,
  code: string,
  display: string,
  text?: string,
): CodeableConcept {
  return { coding: [coding(system, code, display)], ...(text ? { text } : {}) };
}

export function period(
  start: string | null | undefined,
  end: string | null | undefined,
): Period | undefined {
  if (!start && !end) return undefined;
  return { ...(start ? { start } : {}), ...(end ? { end } : {}) };
}

export function notes(text: string | null | undefined): Annotation[] | undefined {
  return text ? [{ text }] : undefined;
}

/** A list of one, or nothing: FHIR allows no empty arrays. */
export function listOf<T>(value: T | undefined | null): T[] | undefined {
  return value === undefined || value === null ? undefined : [value];
}

/** Our extensions of a resource, from the fields that have a value. */
export function kinExtensions(
  values: Record<string, string | null | undefined>,
): Extension[] | undefined {
  const extensions = Object.entries(values)
    .filter((entry): entry is [string, string] => Boolean(entry[1]))
    .map(([name, value]) => ({ url: KIN_EXTENSION + name, valueString: value }));
  return extensions.length > 0 ? extensions : undefined;
}

/** The value of one of our extensions, if present. */
export function kinExtension(element: { extension?: Extension[] }, name: string): string | null {
  const found = element.extension?.find((extension) => extension.url === KIN_EXTENSION + name);
  return typeof found?.valueString === 'string' ? found.valueString : null;
}

/** A required primitive whose value the user never gave (FHIR's data-absent-reason). */
export const UNKNOWN: Element = {
  extension: [{ url: DATA_ABSENT_REASON, valueCode: 'unknown' }],
};

/** A required concept whose value the user never gave. */
export const UNKNOWN_CONCEPT: CodeableConcept = {
  extension: [{ url: DATA_ABSENT_REASON, valueCode: 'unknown' }],
};

const XHTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe to stand inside XHTML, whatever the user typed. */
export function escapeXhtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => XHTML_ESCAPES[character] ?? character);
}

/** Generated narrative around an XHTML fragment built from escaped text. */
export function narrative(xhtml: string): Narrative {
  return { status: 'generated', div: `<div xmlns="http://www.w3.org/1999/xhtml">${xhtml}</div>` };
}

/** A narrative list of plain-text lines (escaped here). */
export function narrativeList(lines: readonly string[]): string {
  return `<ul>${lines.map((line) => `<li>${escapeXhtml(line)}</li>`).join('')}</ul>`;
}

// ---- reading what others write ---------------------------------------------------------

/** The user-facing words of a concept: its text, else a coding's display. */
export function textOf(concept: CodeableConcept | undefined): string | null {
  return concept?.text ?? concept?.coding?.find((coding) => coding.display)?.display ?? null;
}

export function codesOf(concept: CodeableConcept | undefined, system?: string): string[] {
  return (concept?.coding ?? [])
    .filter((coding) => !system || coding.system === system)
    .map((coding) => coding.code ?? '');
}

export function humanName(names: HumanName[] | undefined): string | null {
  const [name] = names ?? [];
  if (!name) return null;
  const parts = [
    ...(name.prefix ?? []),
    ...(name.given ?? []),
    name.family,
    ...(name.suffix ?? []),
  ];
  return name.text ?? (parts.filter(Boolean).join(' ') || null);
}

/** What a resource is called, for a field that holds a name (doctor, office, insurer). */
export function nameOf(resource: Resource | undefined): string | null {
  switch (resource?.resourceType) {
    case 'Practitioner':
    case 'Patient':
    case 'RelatedPerson':
      return humanName(resource.name);
    case 'Organization':
    case 'Location':
    case 'HealthcareService':
      return resource.name ?? null;
    case 'Medication':
      return textOf(resource.code);
    case 'Condition':
      return textOf(resource.code);
    case 'PractitionerRole':
      return resource.practitioner?.display ?? null;
    default:
      return null;
  }
}
/** A FHIR date or dateTime as a calendar date; partial dates (a year, a month) are dropped. */
export function calendarDate(value: string | undefined): string | null {
  const day = value?.slice(0, 10);
  return day && /^\d{4}-\d{2}-\d{2}$/.test(day) && isCalendarDate(day) ? day : null;
}

/** A FHIR dateTime as a UTC timestamp; a bare date is taken at noon UTC, to keep its day. */
export function timestampOf(value: string | undefined): string | null {
  if (!value) return null;
  if (isTimestamp(value)) return toUtcTimestamp(value);
  const day = calendarDate(value);
  return day && value.length === 10 ? `${day}T12:00:00.000Z` : null;
}

export function noteText(...lists: (Annotation[] | undefined)[]): string | null {
  const texts = lists.flatMap((list) => list ?? []).map((annotation) => annotation.text);
  return texts.filter(Boolean).join('\n\n') || null;
}

export function telecom(
  points: ContactPoint[] | undefined,
  system: 'phone' | 'email',
): string | null {
  return points?.find((point) => point.system === system && point.value)?.value ?? null;
}

/** The one of our choices a text names, whatever its case. */
export const pick = <T extends string>(
  choices: readonly T[],
  text: string | null | undefined,
): T | null =>
  choices.find((choice) => choice.toLowerCase() === text?.trim().toLowerCase()) ?? null;
