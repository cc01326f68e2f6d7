/**
 * How the viewer writes what a shared FHIR bundle holds: a concept's text, a date, a number,
 * a medication's timing, the product's own words in the viewer's language; and how it finds
 * the resources of a type, or the one a reference points to.
 */
import type { Bundle, CodeableConcept, Dosage, Resource } from '@medplum/fhirtypes';
import { DAY_GROUP_FORMAT, formatDate, formatList, formatNumber } from '../../shared/dates';
import type { DoseSlot } from '../../shared/doses';
import { tr } from '../../shared/i18n/translate';
import type { MEDICATION_FREQUENCIES } from '../../shared/records/medications';

export const text = (concept: CodeableConcept | undefined): string =>
  concept?.text ?? concept?.coding?.[0]?.display ?? concept?.coding?.[0]?.code ?? '';

/** A date as the viewer's language writes it ('Apr 12, 2017'); one it cannot read, as it is. */
export const day = (value: string | undefined): string =>
  value ? formatDate(value, DAY_GROUP_FORMAT) || value : '';

/** A reading as the viewer's language writes it ('5.5', '5,5'), every digit kept. */
export const number = (value: number): string =>
  formatNumber(value, { useGrouping: false, maximumFractionDigits: 20 });

const DATE_TIME_FORMAT = 'MMM d, yyyy, h:mm a';

export const dateTime = (value: string | undefined): string =>
  value ? formatDate(value, DATE_TIME_FORMAT) || value : '';

/**
 * One of the product's own words the server's mapping writes into the bundle (a status, a
 * relation, a contact's or a policy's type: the record definitions' choices), in the
 * viewer's language; anything else (a word another system wrote) as it is.
 */
export const word = (value: string | undefined | null): string => (value ? tr(value) : '');

/** A FHIR code as the product's screens write it: 'severe' is shown 'Severe'. */
export const capitalized = (code: string): string => code.charAt(0).toUpperCase() + code.slice(1);

export const present = (...parts: (string | undefined | null | false)[]): string[] =>
  parts.filter((part): part is string => Boolean(part));

/** 'Due Apr 12, 2027', or 'Due' alone when the date is not known. */
export const dueText = (value: string | undefined): string =>
  value && day(value) ? tr('Due {date}', { date: day(value) }) : tr('Due');

/**
 * A medication's frequency and times of day, in the words of its form and of the PDF ('Twice
 * Daily', 'Morning, Evening'), read back from the timing the server's FHIR mapping writes
 * (src/server/fhir/mappings/medications.ts, dosageOf; the viewer's tests go through it).
 */
const TIME_OF_WHEN: Record<string, DoseSlot> = {
  MORN: 'Morning',
  NOON: 'Noon',
  EVE: 'Evening',
  NIGHT: 'Night',
};

export function frequencyOf(
  dosage: Dosage | undefined,
): (typeof MEDICATION_FREQUENCIES)[number] | undefined {
  if (dosage?.asNeededBoolean) return 'As Needed';
  const repeat = dosage?.timing?.repeat;
  if (repeat?.period !== 1) return undefined;
  if (repeat.periodUnit === 'd' && repeat.frequency === 1) return 'Daily';
  if (repeat.periodUnit === 'd' && repeat.frequency === 2) return 'Twice Daily';
  if (repeat.periodUnit === 'wk' && repeat.frequency === 1) return 'Weekly';
  return undefined;
}

export function timesOf(dosage: Dosage | undefined): string | undefined {
  const times = (dosage?.timing?.repeat?.when ?? []).flatMap((when) => {
    const slot = TIME_OF_WHEN[when];
    return slot ? [tr(slot)] : [];
  });
  return times.length > 0 ? formatList(times) : undefined;
}

export const byType = <T extends Resource>(resources: Resource[], type: T['resourceType']): T[] =>
  resources.filter((resource) => resource.resourceType === type) as T[];

export function decode(data: string | undefined): string | null {
  if (!data) return null;
  try {
    const binary = atob(data);
    return new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
  } catch {
    return null;
  }
}

/**
 * Finds what a reference points to in the bundle: an entry's fullUrl (`urn:uuid:…`, as the
 * server's mapping writes every reference) or `Type/id`.
 */
export function referenceResolver(bundle: Bundle) {
  const byAddress = new Map<string, Resource>();
  for (const { fullUrl, resource } of bundle.entry ?? []) {
    if (!resource) continue;
    if (fullUrl) byAddress.set(fullUrl, resource);
    if (resource.id) byAddress.set(`${resource.resourceType}/${resource.id}`, resource);
  }
  return <T extends Resource>(reference: string | undefined, type: T['resourceType']) => {
    const resource = reference === undefined ? undefined : byAddress.get(reference);
    return resource?.resourceType === type ? (resource as T) : undefined;
  };
}
