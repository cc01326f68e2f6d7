/**
 * Lab results (CONTRACT.md §5): one test's result on one collected date, with its unit and
 * the reference range printed beside it. 'High' / 'Low' / 'Normal' follow from the range
 * (../labs/lab-flag.ts) and are never stored. The test name is suggested from a shipped list
 * (../labs/lab-tests.ts) that carries each test's LOINC code, kept with the result.
 */
import { key, tr } from '../i18n/translate';
import { z } from 'zod';
import { decimalOf, labFlag } from '../labs/lab-flag';
import { labTests } from '../labs/lab-tests';
import { date, familyMember, text, textarea, type FieldSpec } from './fields';
import { recordCatalogue } from './catalogue';
import { defineRecord, objectSchema, standardMessages } from './definition';

/** A LOINC code: digits, a hyphen, a check digit. */
const LOINC_CODE = /^\d{1,7}-\d$/;

/** A number as typed ('4.5'), kept as text; empty is none. */
function decimal(label: string): FieldSpec<z.ZodType<string | null, unknown>> {
  const base = text(label, { max: 40 });
  return {
    ...base,
    // A number sent as one (a file's value) is read as the text it would have been typed as.
    schema: z
      .preprocess((value) => (typeof value === 'number' ? String(value) : value), base.schema)
      .refine((value) => value === null || decimalOf(value) !== null, {
        error: () => tr('{label} must be a number', { label: tr(label) }),
      }),
  };
}

const loincCode: FieldSpec<z.ZodType<string | null, unknown>> = (() => {
  const base = text('LOINC Code', { max: 20 });
  return {
    ...base,
    schema: base.schema.refine((value) => value === null || LOINC_CODE.test(value), {
      error: () => tr('LOINC Code must be a LOINC code (such as 2093-3)'),
    }),
  };
})();

export const RANGE_ORDER_MESSAGE = key('Range Low must not be above Range High');

const testName = text('Test Name', { required: true });

const fields = {
  test_name: {
    ...testName,
    // Choosing a common test keeps its LOINC code and fills its usual unit.
    suggest: {
      codeField: 'loinc_code',
      options: labTests.map((test) => ({
        value: test.name,
        fills: { loinc_code: test.loinc, unit: test.unit },
      })),
    },
  },
  loinc_code: loincCode,
  result: text('Result', { required: true, max: 200 }),
  unit: text('Unit', { max: 50 }),
  range_low: decimal('Range Low'),
  range_high: decimal('Range High'),
  collected_date: date('Collected Date', { required: true, happened: true, sinceBirth: true }),
  lab: text('Lab'),
  ordered_by: text('Ordered By'),
  notes: textarea('Notes'),
  family_member_id: familyMember(),
};

/** Whether a range's bounds are in order (either may be missing). */
export function rangeInOrder(values: {
  range_low: string | null;
  range_high: string | null;
}): boolean {
  const low = decimalOf(values.range_low);
  const high = decimalOf(values.range_high);
  return low === null || high === null || low <= high;
}

export const labResultDefinition = defineRecord({
  ...recordCatalogue.lab_result,
  titleField: 'test_name',
  pairs: [
    ['result', 'unit'],
    ['range_low', 'range_high'],
    ['lab', 'ordered_by'],
  ],
  fields,
  schema: objectSchema(fields).refine(rangeInOrder, {
    error: () => tr(RANGE_ORDER_MESSAGE),
    path: ['range_low'],
  }),
  memberLinked: true,
  order: [{ column: 'collected_date', direction: 'desc' }],
  timeline: {
    dateField: 'collected_date',
    // A result outside its range is marked on the timeline; one inside it is not.
    mark: {
      fields: ['result', 'range_low', 'range_high'],
      of: (values) => {
        const flag = labFlag({
          result: values.result,
          range_low: values.range_low,
          range_high: values.range_high,
        });
        return flag === 'Normal' ? null : flag;
      },
    },
  },
  afterEdit: 'detail',
  messages: standardMessages('Lab Result', 'lab results', {
    created: 'added',
    deletedDescription: 'removed',
  }),
});
