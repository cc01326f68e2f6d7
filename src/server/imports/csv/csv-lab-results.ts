/**
 * A CSV of lab results (CONTRACT §5's labels: 'Test Name', 'Result', 'Collected Date', and
 * any of 'LOINC Code', 'Unit', 'Range Low', 'Range High', 'Lab', 'Ordered By', 'Notes'):
 * each row one result, checked by the lab result's own schema, so a row the form would
 * refuse is a problem named by its line. Collected Date is a day: a time in it is read on
 * the user's clock for its day; slashed dates go as the whole file tells (csv-dates.ts).
 */
import { labResultDefinition } from '../../../shared/records/lab-results';
import { DatedRows } from './csv-dated-rows';
import { keyOf, type LabField, type LabHeader } from './csv-header';
import type { CsvRow } from './csv-rows';
import { issuesOf, type CsvReading } from './csv-result';

type RowValues = Partial<Record<LabField, string>>;

/** Reads a lab results CSV's rows into lab results. */
export class LabResultRows {
  private readonly rows: DatedRows<RowValues>;

  constructor(
    private readonly header: LabHeader,
    private readonly reading: CsvReading,
    timeZone: string,
  ) {
    const column = header.columns.collected_date!.header;
    this.rows = new DatedRows(column, reading, timeZone, (line, moment, values) => {
      const day = moment.local.slice(0, 10);
      const parsed = labResultDefinition.schema.safeParse({
        ...values,
        collected_date: day,
        family_member_id: null,
      });
      if (!parsed.success) return reading.problem(line, issuesOf(parsed.error));
      reading.records.lab_result.push({
        source_id: reading.sourceId(`csv:lab:${day}:${keyOf(parsed.data.test_name)}`),
        values: parsed.data,
      });
    });
  }

  row({ line, fields }: CsvRow): void {
    const values: RowValues = {};
    for (const [field, column] of Object.entries(this.header.columns)) {
      const text = (fields[column.index] ?? '').trim();
      if (text) values[field as LabField] = text;
    }
    this.reading.unread(fields, this.header.unread);
    this.rows.add(line, values.collected_date ?? '', () => values);
  }

  /** Reads the rows whose dates waited for the whole file; a refusal when its dates do not tell. */
  finish(): { refusal: string } | null {
    return this.rows.finish();
  }
}
