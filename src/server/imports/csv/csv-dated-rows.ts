/**
 * Rows that each carry a date, read in the order the file gives them: a row whose date says
 * its own moment (`2024-03-14`, an ISO time) is kept at once; one with a slashed date
 * (`3/4/2024`) waits for the end of the file, whose dates as a whole tell which way round
 * they go (csv-dates.ts), so only those rows are ever held.
 */
import {
  DATE_FORMATS,
  SlashOrderEvidence,
  momentOf,
  readDate,
  validInOrder,
  type DateReading,
  type Moment,
} from './csv-dates';
import { quoted, type CsvReading } from './csv-result';
import { tr } from '../../../shared/i18n/translate';

interface Waiting<V> {
  line: number;
  date: DateReading;
  text: string;
  values: V;
}

export class DatedRows<V> {
  private readonly waiting: Waiting<V>[] = [];
  private readonly order = new SlashOrderEvidence();

  /** `keep` takes a row, its date read, when its moment is known. */
  constructor(
    private readonly column: string,
    private readonly reading: CsvReading,
    private readonly timeZone: string,
    private readonly keep: (line: number, moment: Moment, values: V) => void,
  ) {}

  /** A row's date cell and what else it holds; a date that does not read is its problem. */
  add(line: number, text: string, values: () => V | null): void {
    if (!text) return this.reading.problem(line, tr('{column} is empty', { column: this.column }));
    const date = readDate(text);
    if (!date) {
      return this.reading.problem(
        line,
        tr('{column} {value} is not a date (write {formats})', {
          column: this.column,
          value: quoted(text),
          formats: DATE_FORMATS,
        }),
      );
    }
    const read = values();
    if (read === null) return;
    if (date.kind !== 'slashed') return this.keep(line, momentOf(date, null, this.timeZone), read);
    this.order.see(date, text);
    this.waiting.push({ line, date, text, values: read });
  }

  /** The rows that waited for the file's end; a refusal when its slashed dates do not tell. */
  finish(): { refusal: string } | null {
    const order = this.order.order(this.column);
    if (order !== null && typeof order === 'object') return order;
    for (const row of this.waiting) {
      if (validInOrder(row.date, order)) {
        this.keep(row.line, momentOf(row.date, order, this.timeZone), row.values);
      } else {
        this.reading.problem(
          row.line,
          tr('{column} {value} is not a date', { column: this.column, value: quoted(row.text) }),
        );
      }
    }
    this.waiting.length = 0;
    return null;
  }
}
