/**
 * The sections of a C-CDA as Kin reads them (decision 0054). A section is known by its LOINC
 * code, which R1.1, R2.1 and every vendor write alike, rather than by its template id, which
 * differs between versions ('entries optional' and 'required', V2, V3) and which
 * @medplum/ccda's converter dispatches on, refusing the whole document at one it does not
 * know (a discharge diagnosis, hospital discharge medications). So before conversion each
 * section the product reads is given the one template id the converter handles for its kind,
 * and sections it does not read are left for the converter to pass over.
 */
import type { Ccda, CcdaSection } from '@medplum/ccda';

/** What a section holds, as the product reads it. */
export type SectionKind =
  | 'allergies'
  | 'medications'
  | 'problems'
  | 'procedures'
  | 'immunizations'
  | 'results'
  | 'vital-signs'
  | 'encounters'
  | 'payers'
  | 'care-team'
  | 'plan-of-treatment';

/** Each section's LOINC code, and what it holds. */
const KIND_OF_LOINC: Record<string, SectionKind> = {
  '48765-2': 'allergies',
  '10160-0': 'medications',
  '10183-2': 'medications', // Hospital discharge medications
  '42346-7': 'medications', // Admission medications
  '29549-3': 'medications', // Medications administered
  '11450-4': 'problems',
  '11535-2': 'problems', // Hospital discharge diagnosis
  '46241-6': 'problems', // Hospital admission diagnosis
  '11348-0': 'problems', // History of past illness
  '47519-4': 'procedures',
  '11369-6': 'immunizations',
  '30954-2': 'results',
  '8716-3': 'vital-signs',
  '46240-8': 'encounters',
  '48768-6': 'payers',
  '85847-2': 'care-team',
  '18776-5': 'plan-of-treatment',
};

/** The template id @medplum/ccda converts each kind of section by. */
const CONVERTER_TEMPLATE: Partial<Record<SectionKind, string>> = {
  allergies: '2.16.840.1.113883.10.20.22.2.6.1',
  medications: '2.16.840.1.113883.10.20.22.2.1.1',
  problems: '2.16.840.1.113883.10.20.22.2.5.1',
  procedures: '2.16.840.1.113883.10.20.22.2.7.1',
  immunizations: '2.16.840.1.113883.10.20.22.2.2.1',
  'care-team': '2.16.840.1.113883.10.20.22.2.500',
};

/** How the coverage table and the skipped list name each kind. */
export const SECTION_TITLES: Record<SectionKind, string> = {
  allergies: 'Allergies',
  medications: 'Medications',
  problems: 'Problems',
  procedures: 'Procedures',
  immunizations: 'Immunizations',
  results: 'Results',
  'vital-signs': 'Vital signs',
  encounters: 'Encounters',
  payers: 'Payers',
  'care-team': 'Care team',
  'plan-of-treatment': 'Plan of treatment',
};

/** Every section of the document's body, in order. */
export function sectionsOf(ccda: Ccda): CcdaSection[] {
  return (ccda.component?.structuredBody?.component ?? []).flatMap(
    (component) => component.section ?? [],
  );
}

/** What a section holds, by its LOINC code; null for a section the product does not read. */
export function sectionKind(section: CcdaSection): SectionKind | null {
  const code = section.code?.['@_code'];
  return (code && KIND_OF_LOINC[code]) || null;
}

/**
 * Each section given the template id the converter reads its kind by; a section of no kind
 * the product reads (and the plan of treatment: planned care, not care had) loses its
 * entries, so the converter neither refuses nor misreads it. Changes the document in place.
 */
export function prepareSections(ccda: Ccda): void {
  for (const section of sectionsOf(ccda)) {
    const kind = sectionKind(section);
    const template = kind ? CONVERTER_TEMPLATE[kind] : undefined;
    if (template) section.templateId = [{ '@_root': template }];
    else if (!kind || kind === 'plan-of-treatment' || kind === 'payers') {
      // Read elsewhere (payers: ccda-payers.ts) or not at all: the converter does not see them.
      section.templateId = [{ '@_root': 'kin.not-converted' }];
      section.entry = kind === 'payers' ? section.entry : undefined;
    }
  }
}
