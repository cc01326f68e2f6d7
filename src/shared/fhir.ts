/** What the FHIR routes take and answer, for the server and the web app alike (CONTRACT.md §4). */
import { z } from 'zod';
import { EMERGENCY_CARD_SCOPE } from './emergency-card';
import { contactsParam, todayParam } from './records/list-query';
import { shareDocumentsParam, shareTypesParam } from './share-links';

/**
 * `?today=YYYY-MM-DD`: the reader's calendar date, where current and upcoming split;
 * `?types=allergy,medication`: only these record types (a share link's choice);
 * `?documents=id,id`: with `types`, these of the person's documents too, each with its file
 * (a share link's choice; without `types` every document is in the bundle);
 * `?contacts=whole-family`: the whole family's contacts too (see list-query.ts);
 * `?vaccines=overdue`: the doses the owner's vaccine schedule has overdue, as recommendations
 * tagged computed (a share link's bundle; the import skips them);
 * `?scope=emergency-card`: only what the person's emergency card holds (emergency-card.ts),
 * whatever `types` says: no documents, doses or vaccine recommendations.
 */
export const fhirQuerySchema = z.object({
  today: todayParam,
  types: shareTypesParam,
  documents: shareDocumentsParam,
  contacts: contactsParam,
  vaccines: z.enum(['overdue']).optional(),
  scope: z
    .literal(EMERGENCY_CARD_SCOPE, { error: `scope must be '${EMERGENCY_CARD_SCOPE}'` })
    .optional(),
});

/** The answer to a FHIR import. */
export interface FhirImportSummary {
  format: 'fhir';
  /** 'Imported 12 medications, 4 conditions; skipped 30 Observations' */
  summary: string;
  /** Records added, per record type; documents as 'document'. */
  imported: Record<string, number>;
  /** Resources not brought in, per FHIR resource type. */
  skipped: Record<string, number>;
  /** The documents (DocumentReferences with a file) among them, and why each was not. */
  skipped_documents: { title: string; reason: string }[];
  /** Records the file holds that are already here (or here changed, and kept). */
  already_imported: number;
  /** Records here that the file held changed, replaced by the file's. */
  replaced: number;
}

/** Whether parsed JSON looks like a FHIR resource rather than the product's own export. */
export function isFhirResource(json: unknown): boolean {
  return (
    typeof json === 'object' &&
    json !== null &&
    typeof (json as { resourceType?: unknown }).resourceType === 'string'
  );
}
