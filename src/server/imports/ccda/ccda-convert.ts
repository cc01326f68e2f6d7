/**
 * A parsed C-CDA as a FHIR R4 Bundle the FHIR import reads (decision 0054): @medplum/ccda's
 * converter does the mapping, with what it lacks done around it. Before it runs, every
 * element it names a resource after is given a stable id (the converter otherwise makes
 * random ones, and importing the same file twice must name every record the same way),
 * narrative references are resolved into words, a medication's dose is written out, and
 * entries that record something not done (a refused shot) are taken out. After it runs, the
 * same clinician met in many entries becomes one contact, an allergy gets its category from
 * the document (the converter calls every allergy a food allergy), procedures become health
 * history, and the payers section becomes insurance (the converter does not read it).
 */
import { createHash } from 'node:crypto';
import { convertCcdaToFhir } from '@medplum/ccda';
import type { Ccda } from '@medplum/ccda';
import type {
  AllergyIntolerance,
  Bundle,
  BundleEntry,
  Condition,
  Medication,
  MedicationRequest,
  Observation,
  Procedure,
  Resource,
} from '@medplum/fhirtypes';
import { payerCoverages } from './ccda-payers';
import { prepareSections, sectionKind, sectionsOf } from './ccda-sections';
import { type Node, isNode, nodes, textContent } from './ccda-nodes';

/** Elements the converter makes a resource of, named by their ids. */
const ENTRY_ELEMENTS = new Set([
  'act',
  'observation',
  'substanceAdministration',
  'organizer',
  'encounter',
  'procedure',
]);
/** People and organisations: the same ids anywhere in the document are the same party. */
const PARTY_ELEMENTS = new Set([
  'patientRole',
  'assignedAuthor',
  'assignedEntity',
  'associatedEntity',
  'representedCustodianOrganization',
]);

/** A UUID made from a key: the converter takes an id of this form as the resource's id. */
function stableUuid(key: string): string {
  const hex = createHash('sha256').update(key).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function idsKey(ids: unknown): string {
  return nodes(ids)
    .map((id) => `${String(id['@_root'] ?? '')}/${String(id['@_extension'] ?? '')}`)
    .filter((key) => key !== '/')
    .join(',');
}

/**
 * Gives each element the converter names a resource after an id made from its own ids (or,
 * without any, from where it stands in the document), so the same file makes the same
 * resources. Returns each such element by the id it was given.
 */
function stampIds(ccda: Ccda): Map<string, Node> {
  const byId = new Map<string, Node>();
  const seen = new Map<string, number>();
  const visit = (node: Node, name: string, path: string) => {
    const party = PARTY_ELEMENTS.has(name);
    if (party || ENTRY_ELEMENTS.has(name) || path === '') {
      const own = idsKey(node.id);
      let key = own ? `${name}|${own}` : `${name}@${path}`;
      if (!party) {
        // Two entries a system gave the same id are still two records.
        const count = seen.get(key) ?? 0;
        seen.set(key, count + 1);
        if (count > 0) key = `${key}#${count}`;
      }
      const uuid = stableUuid(key);
      node.id = [{ '@_root': uuid }, ...nodes(node.id)];
      byId.set(uuid, node);
    }
    for (const [child, value] of Object.entries(node)) {
      if (child.startsWith('@_') || child === 'text' || child === 'id') continue;
      const list = Array.isArray(value) ? value : [value];
      list.forEach((item, index) => {
        if (isNode(item)) visit(item, child, `${path}/${child}[${index}]`);
      });
    }
  };
  visit(ccda as unknown as Node, 'ClinicalDocument', '');
  return byId;
}

/** Narrative references (`<reference value="#med1"/>`) replaced by the words they point to. */
function resolveReferences(ccda: Ccda): void {
  for (const section of sectionsOf(ccda)) {
    const words = new Map<string, string>();
    const collect = (node: unknown) => {
      for (const item of nodes(node)) {
        if (typeof item['@_ID'] === 'string') words.set(item['@_ID'], textContent(item));
        for (const [key, value] of Object.entries(item)) if (!key.startsWith('@_')) collect(value);
      }
    };
    collect(section.text);
    const resolve = (node: unknown) => {
      for (const item of nodes(node)) {
        for (const [key, value] of Object.entries(item)) {
          if (key === 'originalText' && isNode(value)) {
            const target = nodes(value.reference)[0]?.['@_value'];
            const text =
              typeof target === 'string' ? words.get(target.replace(/^#/, '')) : undefined;
            item.originalText = text ?? (textContent(value) || undefined);
          } else if (!key.startsWith('@_')) resolve(value);
        }
      }
    };
    resolve(section.entry);
  }
}

const PERIOD_UNITS: Record<string, string> = { h: 'hours', d: 'days', wk: 'weeks', min: 'minutes' };

/** A medication's dose in words: '1 tablet, by mouth, every 12 hours'. */
function doseText(administration: Node): string | null {
  const dose = nodes(administration.doseQuantity)[0];
  const amount = dose?.['@_value'];
  const unit = dose?.['@_unit'];
  const route = nodes(administration.routeCode)[0]?.['@_displayName'];
  const period = nodes(administration.effectiveTime)
    .map((time) => nodes(time.period)[0])
    .find(Boolean);
  const every =
    period && period['@_value']
      ? `every ${String(period['@_value'])} ${PERIOD_UNITS[String(period['@_unit'])] ?? String(period['@_unit'] ?? '')}`.trim()
      : null;
  const parts = [
    amount ? [amount, unit && unit !== '1' ? unit : null].filter(Boolean).join(' ') : null,
    typeof route === 'string' ? route : null,
    every,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : null;
}

/**
 * Entries the converter would misread, changed before it runs: a medication's dose written
 * out, a procedure's single time given as its start, and what was not done taken out.
 */
function prepareEntries(ccda: Ccda): void {
  for (const section of sectionsOf(ccda)) {
    const kind = sectionKind(section);
    for (const entry of nodes(section.entry)) {
      for (const name of ['substanceAdministration', 'procedure', 'act', 'observation']) {
        // Refused, or recorded as not having happened: nothing to import.
        entry[name] = nodes(entry[name]).filter((item) => item['@_negationInd'] !== 'true');
      }
      if (kind === 'medications') {
        // A discharge medication (R1.1) wraps the medication activity in an act of its own.
        const wrapped = nodes(entry.act).flatMap((act) =>
          nodes(act.entryRelationship).flatMap((relation) =>
            nodes(relation.substanceAdministration),
          ),
        );
        if (wrapped.length > 0) {
          entry.substanceAdministration = [...nodes(entry.substanceAdministration), ...wrapped];
          entry.act = [];
        }
        for (const administration of nodes(entry.substanceAdministration)) {
          administration.text = doseText(administration) ?? undefined;
        }
      }
      // The converter reads a procedure's or a visit's time only as a period.
      for (const item of [...nodes(entry.procedure), ...nodes(entry.encounter)]) {
        const [time] = nodes(item.effectiveTime);
        if (time?.['@_value'] && !time.low)
          item.effectiveTime = [{ low: { '@_value': time['@_value'] } }];
      }
    }
  }
}

const NUCC_CVX = 'http://nucc.org/cvx';
const LOINC = 'http://loinc.org';
const FHIR_CVX = 'http://hl7.org/fhir/sid/cvx';

/** The category an allergy's type (SNOMED, the allergy observation's value) names. */
const ALLERGY_CATEGORY: Record<string, AllergyIntolerance['category']> = {
  '414285001': ['food'],
  '235719002': ['food'],
  '418471000': ['food'],
  '416098002': ['medication'],
  '419511003': ['medication'],
  '59037007': ['medication'],
  '426232007': ['environment'],
};

/** Code systems of drugs: an allergen coded in one is a medication allergy. */
const DRUG_SYSTEMS = new Set([
  '2.16.840.1.113883.6.88', // RxNorm
  '2.16.840.1.113883.6.69', // NDC
  '2.16.840.1.113883.3.26.1.5', // NDF-RT
]);

function allergyCategory(act: Node | undefined): AllergyIntolerance['category'] {
  const observation = nodes(act?.entryRelationship)
    .flatMap((relation) => nodes(relation.observation))
    .at(0);
  const code = nodes(observation?.value)[0]?.['@_code'];
  const named = typeof code === 'string' ? ALLERGY_CATEGORY[code] : undefined;
  if (named) return named;
  // 'Allergy to substance' says no more: the allergen's code system may.
  const allergen = nodes(
    nodes(nodes(observation?.participant)[0]?.participantRole)[0]?.playingEntity,
  )[0];
  const system = nodes(allergen?.code)[0]?.['@_codeSystem'];
  return typeof system === 'string' && DRUG_SYSTEMS.has(system) ? ['medication'] : undefined;
}

const PROBLEM_STATUS_TEMPLATE = '2.16.840.1.113883.10.20.22.4.6';
/** Problem status values (SNOMED) as FHIR's clinical status. */
const PROBLEM_STATUS: Record<string, string> = {
  '55561003': 'active',
  '73425007': 'inactive',
  '413322009': 'resolved',
};

/**
 * A problem's clinical status, which the converter takes from the concern act's status alone
 * (and so calls every problem active): the problem status observation when there is one,
 * else resolved when the problem has an end, or when the concern is no longer tracked.
 */
function problemStatus(act: Node | undefined): string | null {
  const problem = nodes(act?.entryRelationship)
    .flatMap((relation) => nodes(relation.observation))
    .at(0);
  if (!act || !problem) return null;
  const status = nodes(problem.entryRelationship)
    .flatMap((relation) => nodes(relation.observation))
    .find((item) => nodes(item.templateId).some((id) => id['@_root'] === PROBLEM_STATUS_TEMPLATE));
  const code = nodes(status?.value)[0]?.['@_code'];
  if (typeof code === 'string' && PROBLEM_STATUS[code]) return PROBLEM_STATUS[code];
  const ended = nodes(nodes(problem.effectiveTime)[0]?.high)[0]?.['@_value'];
  if (typeof ended === 'string') return 'resolved';
  const tracked = nodes(act.statusCode)[0]?.['@_code'];
  return tracked === 'completed' ? 'resolved' : tracked === 'active' ? 'active' : null;
}

function withProblemStatus(condition: Condition, act: Node | undefined): Condition {
  if (act === undefined || nodes(act.entryRelationship).length === 0) return condition;
  const status = problemStatus(act);
  if (!status) return condition;
  return {
    ...condition,
    clinicalStatus: {
      coding: [
        { system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: status },
      ],
    },
  };
}

/** A procedure as health history: a resolved condition dated when it was done. */
function procedureCondition(procedure: Procedure | Observation): Condition | null {
  if (procedure.status !== 'completed' && procedure.status !== 'final') return null;
  if (!procedure.code) return null;
  const done =
    procedure.resourceType === 'Procedure'
      ? (procedure.performedDateTime ?? procedure.performedPeriod?.start)
      : (procedure.effectiveDateTime ?? procedure.effectivePeriod?.start);
  return {
    resourceType: 'Condition',
    id: procedure.id,
    code: procedure.code,
    clinicalStatus: {
      coding: [
        { system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'resolved' },
      ],
    },
    subject: { reference: procedure.subject?.reference },
    ...(done ? { onsetDateTime: done } : {}),
    note: [{ text: 'Procedure' }],
  };
}

/** The ids given to the entries of procedures sections: procedures, acts and observations. */
function procedureIds(ccda: Ccda): Set<string> {
  const ids = new Set<string>();
  for (const section of sectionsOf(ccda)) {
    if (sectionKind(section) !== 'procedures') continue;
    for (const entry of nodes(section.entry)) {
      for (const name of ['procedure', 'act', 'observation']) {
        for (const item of nodes(entry[name])) ids.add(String(nodes(item.id)[0]?.['@_root']));
      }
    }
  }
  return ids;
}

/** Vital-sign codes C-CDAs write for what the vitals reader knows by another LOINC code. */
const VITAL_ALIASES: Record<string, string> = {
  '3141-9': '29463-7', // Body weight Measured
  '3137-7': '8302-2', // Body height Measured
  '8308-9': '8302-2', // Body height --standing
  '41909-3': '39156-5', // Body mass index
};

/** Units C-CDAs write that are not UCUM's code for what they mean. */
const UNIT_ALIASES: Record<string, string> = {
  lbs: '[lb_av]',
  lb: '[lb_av]',
  '[in_us]': '[in_i]',
  in: '[in_i]',
};

function withVitalCode(observation: Observation): Observation {
  const codings = observation.code?.coding ?? [];
  const alias = codings
    .map((coding) => (coding.system === LOINC ? VITAL_ALIASES[coding.code ?? ''] : undefined))
    .find(Boolean);
  const quantity = observation.valueQuantity;
  const unit = UNIT_ALIASES[quantity?.code ?? quantity?.unit ?? ''];
  return {
    ...observation,
    ...(alias && !codings.some((coding) => coding.code === alias)
      ? { code: { ...observation.code, coding: [{ system: LOINC, code: alias }, ...codings] } }
      : {}),
    ...(quantity && unit ? { valueQuantity: { ...quantity, unit, code: unit } } : {}),
  };
}

/**
 * A medication the converter wrote as a contained Medication (when the document names its
 * maker) named by its code instead: the import reads a medication's name from its concept.
 */
function withMedicationConcept(request: MedicationRequest): MedicationRequest {
  const target = request.medicationReference?.reference;
  const contained = request.contained?.find(
    (resource): resource is Medication =>
      resource.resourceType === 'Medication' && `#${resource.id}` === target,
  );
  if (!contained?.code) return request;
  const { contained: _contained, medicationReference: _reference, ...rest } = request;
  return { ...rest, medicationCodeableConcept: contained.code };
}

const humanKey = (resource: Resource): string | null => {
  if (resource.resourceType !== 'Practitioner') return null;
  const [name] = resource.name ?? [];
  const words = [...(name?.given ?? []), name?.family].filter(Boolean).join(' ').toLowerCase();
  return words || null;
};

/**
 * The converter's Bundle made fit for the import: one resource per party (a clinician named
 * in every entry is one contact), allergies' categories, procedures as history, no empty
 * organisations, and the payers as Coverage.
 */
function finishBundle(bundle: Bundle, ccda: Ccda, byId: Map<string, Node>): Bundle {
  const procedures = procedureIds(ccda);
  const kept: BundleEntry[] = [];
  const seen = new Set<string>();
  const sameAs = new Map<string, string>();
  const byName = new Map<string, string>();
  const nameless = new Set<string>();
  for (const entry of bundle.entry ?? []) {
    let resource = entry.resource;
    const id = resource?.id;
    if (!resource || !id) continue;
    const address = `${resource.resourceType}/${resource.id}`;
    if (seen.has(address)) continue;
    seen.add(address);
    const name = humanKey(resource);
    if (name) {
      const first = byName.get(name);
      if (first) {
        sameAs.set(address, first);
        continue;
      }
      byName.set(name, address);
    }
    // An author that is a device or an organisation only: a Practitioner of no one.
    if (resource.resourceType === 'Practitioner' && !name) {
      nameless.add(address);
      continue;
    }
    if (
      resource.resourceType === 'PractitionerRole' &&
      nameless.has(resource.practitioner?.reference ?? '')
    ) {
      continue;
    }
    if (resource.resourceType === 'Organization' && !resource.name) continue;
    // A panel (a vital signs organizer) holds its members and no value of its own.
    if (
      resource.resourceType === 'Observation' &&
      resource.hasMember?.length &&
      !Object.keys(resource).some((key) => key.startsWith('value'))
    ) {
      continue;
    }
    if (resource.resourceType === 'Observation') resource = withVitalCode(resource);
    if (resource.resourceType === 'MedicationRequest') resource = withMedicationConcept(resource);
    if (resource.resourceType === 'Condition') resource = withProblemStatus(resource, byId.get(id));
    if (resource.resourceType === 'AllergyIntolerance') {
      resource = { ...resource, category: allergyCategory(byId.get(id)) };
    }
    if (procedures.has(id) || resource.resourceType === 'Procedure') {
      if (resource.resourceType !== 'Procedure' && resource.resourceType !== 'Observation')
        continue;
      const condition = procedureCondition(resource);
      if (!condition) continue;
      resource = condition;
    }
    kept.push({ resource });
  }
  const text = JSON.stringify(kept)
    .replace(/"reference":"(Practitioner\/[^"]+)"/g, (whole, address: string) => {
      const first = sameAs.get(address);
      return first ? `"reference":"${first}"` : whole;
    })
    // The converter names CVX by NUCC's address; FHIR's (and the vaccine schedule's) is HL7's.
    .replaceAll(`"system":"${NUCC_CVX}"`, `"system":"${FHIR_CVX}"`)
    // and writes a time zone as C-CDA does (-0500), where FHIR has a colon (-05:00).
    .replace(/"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?)([+-]\d\d)(\d\d)"/g, '"$1$2:$3"');
  const entries = JSON.parse(text) as BundleEntry[];
  for (const coverage of payerCoverages(ccda)) entries.push({ resource: coverage });
  return { ...bundle, entry: entries };
}

/** A parsed C-CDA as a FHIR R4 Bundle of the records it holds, the same for the same file. */
export function ccdaBundle(ccda: Ccda): Bundle {
  resolveReferences(ccda);
  prepareEntries(ccda);
  prepareSections(ccda);
  const byId = stampIds(ccda);
  const bundle = convertCcdaToFhir(ccda, { ignoreUnsupportedSections: true });
  return finishBundle(bundle, ccda, byId);
}
