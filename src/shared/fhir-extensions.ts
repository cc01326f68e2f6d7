/**
 * Fields with no home in R4 travel in extensions of ours. Their URLs are logical names
 * (a URN, which FHIR allows for Extension.url) rather than web addresses of a domain we
 * would have to own; other systems ignore them, and our import and the share viewer read
 * them back.
 */
export const KIN_EXTENSION = 'urn:kin-health:fhir:';
