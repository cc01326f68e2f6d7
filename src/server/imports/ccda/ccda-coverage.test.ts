/**
 * How much of real C-CDA documents becomes records: per section, the coded entries (each
 * entry's act, medication, encounter or procedure; each observation of a results or vital
 * signs organizer) and how many of them map to a record. The table is printed; the floor is
 * asserted, so a change that loses entries fails here.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { convertXmlToCcda } from '@medplum/ccda';
import type { Resource } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { importFhirBundle } from '../../fhir/fhir-import';
import { readVitalObservation } from '../../fhir/mappings/vitals';
import { ccdaBundle } from './ccda-convert';
import { type Node, nodes, textContent } from './ccda-nodes';
import { SECTION_TITLES, type SectionKind, sectionKind, sectionsOf } from './ccda-sections';

const TESTDATA = fileURLToPath(new URL('../testdata/ccda/', import.meta.url));
const DOCUMENTS = ['hl7', 'sample-ccdas'].flatMap((folder) =>
  readdirSync(join(TESTDATA, folder))
    .filter((name) => name.endsWith('.xml'))
    .map((name) => join(TESTDATA, folder, name)),
);
const ENTRY_ELEMENTS = ['act', 'substanceAdministration', 'encounter', 'procedure', 'observation'];

/**
 * The coded entries of a section: organizers stand for their observations, a payer's
 * coverage for its policies.
 */
function codedEntries(section: Node, kind: SectionKind): Node[] {
  if (kind === 'payers') {
    return nodes(section.entry)
      .flatMap((entry) => nodes(entry.act))
      .flatMap((act) => nodes(act.entryRelationship).flatMap((relation) => nodes(relation.act)));
  }
  return nodes(section.entry).flatMap((entry) => [
    ...ENTRY_ELEMENTS.flatMap((name) => nodes(entry[name])),
    ...nodes(entry.organizer).flatMap((organizer) =>
      nodes(organizer.component).flatMap((component) => nodes(component.observation)),
    ),
  ]);
}

const stampOf = (element: Node) => String(nodes(element.id)[0]?.['@_root'] ?? '');

function describeEntry(element: Node): string {
  const code =
    nodes(element.code)[0] ??
    nodes(nodes(element.entryRelationship).flatMap((r) => nodes(r.observation))[0]?.value)[0];
  const name = code?.['@_displayName'] ?? textContent(code?.originalText) ?? code?.['@_code'];
  const negated = element['@_negationInd'] === 'true' ? ' (not done)' : '';
  return `${String(name || 'no code')}${negated}`;
}

interface Tally {
  entries: number;
  mapped: number;
  skipped: string[];
}

function coverageOf(path: string, tallies: Map<SectionKind, Tally>) {
  const ccda = convertXmlToCcda(readFileSync(path, 'utf8'));
  // Entries recorded as not done (a refused shot) are taken out before conversion: counted here.
  const notDone = new Map<SectionKind, Node[]>();
  const read = () =>
    sectionsOf(ccda).flatMap((section) => {
      const kind = sectionKind(section);
      // The plan of treatment is care planned, not had: not counted.
      if (!kind || kind === 'plan-of-treatment') return [];
      return [{ kind, entries: codedEntries(section as unknown as Node, kind) }];
    });
  for (const { kind, entries } of read()) {
    notDone.set(
      kind,
      entries.filter((element) => element['@_negationInd'] === 'true'),
    );
  }
  const bundle = ccdaBundle(ccda);
  const sections = read();
  const result = importFhirBundle(bundle, { familyMemberId: null });
  if (!result.ok) throw new Error(result.message);
  const recorded = new Set(
    Object.values(result.records)
      .flat()
      .map((record) => /\/([0-9a-f-]{36})/.exec(record.source_id)?.[1]),
  );
  const resources = new Map<string, Resource>();
  for (const entry of bundle.entry ?? []) {
    if (entry.resource?.id) resources.set(entry.resource.id, entry.resource);
  }
  for (const { kind, entries } of sections) {
    const tally = tallies.get(kind) ?? { entries: 0, mapped: 0, skipped: [] };
    tallies.set(kind, tally);
    for (const element of notDone.get(kind) ?? []) {
      tally.entries += 1;
      tally.skipped.push(`${path.split('/').slice(-2).join('/')}: ${describeEntry(element)}`);
    }
    for (const element of entries) {
      tally.entries += 1;
      const stamp = stampOf(element);
      const resource = resources.get(stamp);
      // A vital sign, or a blood glucose among the results: read as a vitals entry.
      const vital = resource !== undefined && readVitalObservation(resource) !== null;
      if (recorded.has(stamp) || vital) tally.mapped += 1;
      else tally.skipped.push(`${path.split('/').slice(-2).join('/')}: ${describeEntry(element)}`);
    }
  }
}

describe('C-CDA coverage', () => {
  it('maps at least 95% of the coded entries of the kept documents to records', () => {
    const tallies = new Map<SectionKind, Tally>();
    for (const path of DOCUMENTS) coverageOf(path, tallies);
    const rows = [...tallies.entries()].map(([kind, tally]) => ({
      section: SECTION_TITLES[kind],
      entries: tally.entries,
      mapped: tally.mapped,
      percent: tally.entries ? Math.round((1000 * tally.mapped) / tally.entries) / 10 : 100,
    }));
    const entries = rows.reduce((sum, row) => sum + row.entries, 0);
    const mapped = rows.reduce((sum, row) => sum + row.mapped, 0);
    console.log(`${DOCUMENTS.length} documents`);
    console.table(rows);
    console.log(`overall: ${mapped} of ${entries}`);
    for (const tally of tallies.values())
      for (const line of tally.skipped) console.log(`skipped ${line}`);
    expect(DOCUMENTS.length).toBeGreaterThanOrEqual(8);
    expect(mapped / entries).toBeGreaterThanOrEqual(0.95);
  });
});
