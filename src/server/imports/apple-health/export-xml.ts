/**
 * Reading Apple Health's `export.xml` as a stream (it reaches gigabytes): its bytes are
 * decoded and handed to saxes a chunk at a time, and each element Kin reads (`Me`, and each
 * `Record`, with the blood-pressure `Correlation` it sits in) goes to the caller as it is
 * met, and each `ClinicalRecord` (the FHIR version of a file in `clinical-records/`);
 * nothing else of the file is kept. Before the parser sees a byte, the file's prologue
 * is checked (decision 0054): Apple's DOCTYPE declares elements and attributes only, and an
 * entity declaration or an outside id is refused. saxes itself never reads the DOCTYPE's
 * declarations and expands only XML's five entities; any other reference fails the file.
 */
import { SaxesParser } from 'saxes';
import { MAX_PROLOGUE_CHARS, xmlRefusal } from '../xml-safety';
import { ownCopy } from './apple-dates';
import { unreadableExport } from './export-zip';
import { key } from '../../../shared/i18n/translate';

export const NOT_AN_EXPORT = key(
  'This file is not an Apple Health export: its XML does not begin with HealthData',
);

/** One `Record` element's attributes Kin reads. */
export interface AppleRecord {
  type: string;
  unit: string;
  value: string;
  startDate: string;
  /** The blood-pressure Correlation it is part of (a number counted from 1), or null. */
  correlation: number | null;
}

/** A `ClinicalRecord` element: which file in `clinical-records/` holds it, in which FHIR version. */
export interface AppleClinicalRecord {
  /** `/clinical-records/Observation-3A2B….json` */
  resourceFilePath: string;
  /** `1.0.2` (DSTU2), `4.0.1` (R4). */
  fhirVersion: string;
}

export interface ExportVisitor {
  me(attributes: Record<string, string>): void;
  record(record: AppleRecord): void;
  clinicalRecord(record: AppleClinicalRecord): void;
}

const BLOOD_PRESSURE = 'HKCorrelationTypeIdentifierBloodPressure';

/** The words of a parse error a user can act on, with where it is. */
function parseFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return unreadableExport(message.slice(0, 200));
}

/**
 * Parses an export.xml from its chunks, telling `visitor` each element read. Answers null
 * when the whole file was read, else why it was refused.
 */
export async function parseExportXml(
  chunks: AsyncIterable<Uint8Array>,
  visitor: ExportVisitor,
): Promise<string | null> {
  const parser = new SaxesParser({ xmlns: false, position: true });
  let root: string | null = null;
  let correlations = 0;
  let correlation: number | null = null;
  let depth = 0;
  let correlationDepth = -1;
  parser.on('opentag', (tag) => {
    depth += 1;
    if (root === null) {
      root = tag.name;
      if (root !== 'HealthData') throw new Error(NOT_AN_EXPORT);
      return;
    }
    const attributes = tag.attributes as Record<string, string>;
    if (tag.name === 'Record') {
      visitor.record({
        type: attributes.type ?? '',
        unit: attributes.unit ?? '',
        value: attributes.value ?? '',
        startDate: attributes.startDate ?? '',
        correlation,
      });
    } else if (tag.name === 'Correlation' && attributes.type === BLOOD_PRESSURE) {
      correlations += 1;
      correlation = correlations;
      correlationDepth = depth;
    } else if (tag.name === 'Me') {
      visitor.me(attributes);
    } else if (tag.name === 'ClinicalRecord') {
      visitor.clinicalRecord({
        resourceFilePath: ownCopy(attributes.resourceFilePath ?? ''),
        fhirVersion: ownCopy(attributes.fhirVersion ?? ''),
      });
    }
  });
  parser.on('closetag', () => {
    if (depth === correlationDepth) {
      correlation = null;
      correlationDepth = -1;
    }
    depth -= 1;
  });

  /** The parser's own failures (a malformed file), told from the reading's. */
  class Unreadable extends Error {}
  const write = (text: string) => {
    try {
      parser.write(text);
    } catch (error) {
      throw new Unreadable(
        error instanceof Error && error.message === NOT_AN_EXPORT
          ? NOT_AN_EXPORT
          : parseFailure(error),
      );
    }
  };
  const decoder = new TextDecoder('utf-8');
  let start = '';
  let checked = false;
  try {
    for await (const chunk of chunks) {
      const text = decoder.decode(chunk, { stream: true });
      if (checked) {
        write(text);
        continue;
      }
      // The prologue is checked whole before the parser sees any of it.
      start += text;
      if (!/<[A-Za-z_]/.test(start) && start.length < MAX_PROLOGUE_CHARS) continue;
      const refusal = xmlRefusal(start, 'declarations-only');
      if (refusal) return refusal;
      checked = true;
      write(start);
      start = '';
    }
    const rest = decoder.decode();
    if (!checked) {
      start += rest;
      if (!/<[A-Za-z_]/.test(start)) return NOT_AN_EXPORT;
      const refusal = xmlRefusal(start, 'declarations-only');
      if (refusal) return refusal;
      write(start);
    } else if (rest) {
      write(rest);
    }
    try {
      parser.close();
    } catch (error) {
      throw new Unreadable(parseFailure(error));
    }
  } catch (error) {
    if (error instanceof Unreadable) return error.message;
    throw error;
  }
  return root === 'HealthData' ? null : NOT_AN_EXPORT;
}
