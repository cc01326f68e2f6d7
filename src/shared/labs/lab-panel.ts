/**
 * A panel: several lab results of one collected date, lab, orderer and person, entered in
 * one go and saved all or none. Each row is checked with the lab result's own schema (the
 * one a single result is checked with), and a refusal names its row and field:
 * 'Row 2: Result is required', at `results.1.result`.
 */
import { key, tr } from '../i18n/translate';
import { z } from 'zod';
import { BODY_NOT_OBJECT } from '../api-error';
import { labResultDefinition } from '../records/lab-results';
import type { RecordValues } from '../records/definition';

/** The fields a panel's rows share, typed once for all of them. */
export const PANEL_SHARED_FIELDS = [
  'collected_date',
  'lab',
  'ordered_by',
  'family_member_id',
] as const;
/** The fields of each row. */
export const PANEL_ROW_FIELDS = [
  'test_name',
  'loinc_code',
  'result',
  'unit',
  'range_low',
  'range_high',
] as const;

/** The most results one panel saves (a comprehensive panel and more, with room to spare). */
export const MAX_PANEL_ROWS = 40;

export const NO_PANEL_ROWS_MESSAGE = key('Add at least one result');

export type LabResultValues = RecordValues<typeof labResultDefinition>;

const pickFields = (value: unknown, names: readonly string[]) => {
  const record = (typeof value === 'object' && value !== null ? value : {}) as Record<
    string,
    unknown
  >;
  return Object.fromEntries(
    names.filter((name) => name in record).map((name) => [name, record[name]]),
  );
};

export const labPanelSchema = z
  .object(
    {
      results: z
        .array(z.unknown(), { error: () => tr('Results must be a list of results') })
        .min(1, { error: () => tr(NO_PANEL_ROWS_MESSAGE) })
        .max(MAX_PANEL_ROWS, {
          error: () => tr('A panel holds at most {max} results', { max: MAX_PANEL_ROWS }),
        }),
    },
    { error: () => tr(BODY_NOT_OBJECT) },
  )
  .passthrough()
  .transform((panel, context): LabResultValues[] => {
    const shared = pickFields(panel, PANEL_SHARED_FIELDS);
    const rows: LabResultValues[] = [];
    panel.results.forEach((row, index) => {
      const parsed = labResultDefinition.schema.safeParse({
        ...pickFields(row, PANEL_ROW_FIELDS),
        ...shared,
        notes: null,
      });
      if (parsed.success) {
        rows.push(parsed.data);
        return;
      }
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? '');
        const isShared = (PANEL_SHARED_FIELDS as readonly string[]).includes(field);
        // A shared field's problem is the same on every row: said once, by its own name.
        if (isShared && index > 0) continue;
        context.addIssue({
          code: 'custom',
          message: isShared
            ? issue.message
            : tr('Row {row}: {message}', { row: index + 1, message: issue.message }),
          path: isShared ? [field] : ['results', index, field],
        });
      }
    });
    return rows;
  });

export type LabPanelInput = z.input<typeof labPanelSchema>;
