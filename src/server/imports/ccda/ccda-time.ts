/** C-CDA times (`20120806`, `201208061030-0500`) as FHIR dates and dateTimes. */
import { mapCcdaToFhirDate, mapCcdaToFhirDateTime } from '@medplum/ccda';
import { isNode } from './ccda-nodes';

const valueOf = (time: unknown): string | null => {
  const value = isNode(time) ? time['@_value'] : time;
  return typeof value === 'string' && /^\d{4}/.test(value) ? value : null;
};

/** A time element's value as a FHIR dateTime; a day only when the value has one. */
export function ccdaDateTime(time: unknown): string | null {
  const value = valueOf(time);
  if (!value) return null;
  return value.length >= 8 ? (mapCcdaToFhirDateTime(value) ?? null) : null;
}

/** `YYYY-MM-DD` from a C-CDA time, when it has a day. */
export function ccdaDay(time: unknown): string | null {
  const value = valueOf(time);
  return value && value.length >= 8 ? (mapCcdaToFhirDate(value.slice(0, 8)) ?? null) : null;
}
