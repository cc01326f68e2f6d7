/**
 * Fields with no home in R4 travel in extensions of ours. Their URLs are logical names
 * (a URN, which FHIR allows for Extension.url) rather than web addresses of a domain we
 * would have to own; other systems ignore them, and our import and the share viewer read
 * them back.
 */
export const KIN_EXTENSION = 'urn:kin-health:fhir:';

/**
 * The tag on a resource the product computed rather than recorded: a share link's overdue
 * vaccine doses (ImmunizationRecommendations from the owner's vaccine schedule). The share
 * viewer shows them; the import skips them, so a re-imported bundle adds no shot.
 */
export const KIN_COMPUTED_TAG = { system: `${KIN_EXTENSION}tag`, code: 'computed' } as const;

export const isComputed = (resource: { meta?: { tag?: { system?: string; code?: string }[] } }) =>
  (resource.meta?.tag ?? []).some(
    (tag) => tag.system === KIN_COMPUTED_TAG.system && tag.code === KIN_COMPUTED_TAG.code,
  );

/**
 * The tag in a shared bundle's `meta` naming the owner's Units, so that the viewer shows the
 * vitals as the owner reads them ('us'); without it, metric. The FHIR values stay in their
 * canonical UCUM units either way.
 */
export const SHARE_UNITS_TAG_SYSTEM = `${KIN_EXTENSION}units`;

/**
 * LOINC's 'Symptom' (75325-1): a symptom the person reported is an Observation with this code
 * (server/fhir/mappings/symptoms.ts), and the share viewer lists those under 'Symptoms'.
 */
export const SYMPTOM_LOINC = '75325-1';
