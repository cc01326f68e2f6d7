/**
 * The common lab tests the form suggests (each with its LOINC code, usual UCUM unit and, where
 * a checked reference gives one, its typical adult range) and the panels that add several at
 * once. The lists are data (reference/lab-tests.json, with
 * its source beside it); this module only reads them.
 */
import data from './reference/lab-tests.json' with { type: 'json' };

/** A reference range as typed into the form ('' for a bound the source does not give). */
export interface RangeBounds {
  low: string;
  high: string;
}

/**
 * A typical adult reference range, in the test's usual unit, as a named source gives it: one
 * for everyone, or one per sex.
 */
export type TypicalRange = { source: string } & (
  RangeBounds | { female: RangeBounds; male: RangeBounds }
);

export interface LabTest {
  /** The name the form offers and the list shows ('LDL Cholesterol'). */
  name: string;
  /** Its LOINC code. */
  loinc: string;
  /** LOINC's long common name. */
  display: string;
  /** The usual unit, as a UCUM code ('' when a result has none, a test strip's 'Negative'). */
  unit: string;
  /** Its typical adult range, where a checked source gives one. */
  range?: TypicalRange;
}

/** The references the typical ranges come from, by the key each range names. */
export const rangeSources: Readonly<Record<string, { name: string; url: string }>> =
  data.rangeSources;

export interface LabPanel {
  name: string;
  loinc: string;
  tests: readonly LabTest[];
}

export const labTests: readonly LabTest[] = data.tests as LabTest[];

for (const test of labTests) {
  if (test.range && !rangeSources[test.range.source]) {
    throw new Error(`The range of ${test.name} names an unknown source: ${test.range.source}`);
  }
}

const byName = new Map(labTests.map((test) => [test.name.toLowerCase(), test]));
const byCode = new Map(labTests.map((test) => [test.loinc, test]));

export const labPanels: readonly LabPanel[] = data.panels.map((panel) => ({
  name: panel.name,
  loinc: panel.loinc,
  tests: panel.tests.map((name) => {
    const test = byName.get(name.toLowerCase());
    if (!test) throw new Error(`Panel ${panel.name} names an unknown test: ${name}`);
    return test;
  }),
}));

/** The shipped test of a name, ignoring case; undefined for a name of the user's own. */
export function labTestNamed(name: string): LabTest | undefined {
  return byName.get(name.trim().toLowerCase());
}

/** The shipped test of a LOINC code. */
export function labTestOfCode(code: string): LabTest | undefined {
  return byCode.get(code);
}
