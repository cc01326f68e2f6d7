/**
 * The rows of the lab panel form, one per test: on a phone a box of fields each; from 1024 px
 * a table, a column per field under one header, each field's label kept for assistive tools,
 * and the flag the range gives the result.
 */
import { Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { key } from '../../../shared/i18n/translate';
import { labFlag } from '../../../shared/labs/lab-flag';
import { formatNumber } from '../../../shared/dates';
import { labResultDefinition } from '../../../shared/records';
import { LabFlagBadge } from '../../components/lab-flag-badge';
import { Button } from '../../components/ui/button';
import { fieldErrorProps, FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { cn } from '../../lib/cn';
import type { Row, RowField } from './use-lab-panel-form';

const fields = labResultDefinition.fields;

/** A row's fields, in the order they are typed (and its columns at a desk). */
const ROW_FIELDS = ['test_name', 'result', 'unit', 'range_low', 'range_high'] as const;
/** The row's columns at a desk: the fields, the flag, the remove button. */
const ROW_COLUMNS = 'lg:grid-cols-[minmax(0,2fr)_repeat(4,minmax(0,1fr))_5rem_2.75rem]';
/** The flag's column header: 'High', 'Low' or 'Normal', as the lists show it. */
const FLAG_HEADER = key('Flag');

/** A row's field's element id, and where its error is kept. */
const rowFieldId = (rowKey: number, name: RowField) =>
  `lab-panel-${rowKey}-${name.replace(/_/g, '-')}`;
const rowErrorPath = (index: number, name: RowField) => `results.${index}.${name}`;

interface RowsProps {
  rows: Row[];
  errors: Record<string, string>;
  /** Where a row's range comes from, while it holds the one suggested. */
  rangeNote: (row: Row) => string | undefined;
  setRow: (key: number, field: RowField, value: string) => void;
  removeRow: (key: number) => void;
}

/** One test's row: its fields, its flag, and a button that removes it when it is not alone. */
function LabPanelRow({
  row,
  index,
  rows,
  errors,
  rangeNote,
  setRow,
  removeRow,
}: RowsProps & { row: Row; index: number }) {
  const { t } = useTranslation();
  return (
    <fieldset
      className={cn(
        'space-y-3 rounded-xl border border-border p-3',
        'lg:grid lg:items-start lg:gap-x-2 lg:space-y-0 lg:rounded-none lg:border-0 lg:border-b lg:px-0 lg:py-2',
        ROW_COLUMNS,
      )}
      aria-label={t('Row {n}', { n: formatNumber(index + 1) })}
    >
      <legend className="px-1 text-sm font-semibold lg:sr-only">
        {t('Row {n}', { n: formatNumber(index + 1) })}
        {row.test_name ? `: ${row.test_name}` : ''}
      </legend>
      {ROW_FIELDS.map((name) => {
        const id = rowFieldId(row.key, name);
        const error = errors[rowErrorPath(index, name)];
        const field = fields[name];
        return (
          <FormField
            key={name}
            id={id}
            label={t(field.label)}
            required={field.required}
            error={error}
            labelClassName="lg:sr-only"
          >
            <Input
              id={id}
              type="text"
              required={field.required}
              maxLength={field.maxLength}
              autoComplete="off"
              inputMode={name === 'range_low' || name === 'range_high' ? 'decimal' : undefined}
              list={name === 'test_name' ? 'lab-panel-tests' : undefined}
              value={row[name]}
              onChange={(event) => setRow(row.key, name, event.target.value)}
              {...fieldErrorProps(id, error)}
            />
            {name === 'range_high' ? (
              <p className="text-sm text-muted-foreground lg:text-xs" aria-live="polite">
                {rangeNote(row)}
              </p>
            ) : null}
          </FormField>
        );
      })}
      <div className="hidden lg:flex lg:min-h-11 lg:items-center">
        <LabFlagBadge flag={labFlag(row)} />
      </div>
      {rows.length > 1 ? (
        <Button
          type="button"
          variant="ghost"
          className="lg:px-2"
          onClick={() => removeRow(row.key)}
        >
          <Trash2 aria-hidden="true" />
          <span className="lg:sr-only">{t('Remove row {n}', { n: formatNumber(index + 1) })}</span>
        </Button>
      ) : null}
    </fieldset>
  );
}

/** The table's header at a desk, then a row per test. */
export function LabPanelRows(props: RowsProps) {
  const { t } = useTranslation();
  return (
    <div className="space-y-5 lg:space-y-0">
      <div
        aria-hidden="true"
        className={cn(
          'hidden border-b border-border pb-2 text-sm font-semibold text-muted-foreground lg:grid lg:gap-x-2',
          ROW_COLUMNS,
        )}
      >
        {ROW_FIELDS.map((name) => (
          <span key={name}>
            {t(fields[name].label)}
            {fields[name].required ? <span className="text-destructive"> *</span> : null}
          </span>
        ))}
        <span>{t(FLAG_HEADER)}</span>
      </div>
      {props.rows.map((row, index) => (
        <LabPanelRow key={row.key} {...props} row={row} index={index} />
      ))}
    </div>
  );
}
