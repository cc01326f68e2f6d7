/**
 * A CSV file's rows, read from disk as a stream with csv-parse, each with the line a
 * spreadsheet gives it. The delimiter is told by the header row (a comma, a semicolon as
 * European spreadsheets write, or a tab as 'Unicode text' does), a byte-order mark is
 * dropped, and a file over MAX_CSV_BYTES is refused unopened (decision 0056; the rows are
 * bounded by what they hold, in read-csv.ts).
 */
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { CsvError, parse } from 'csv-parse';
import { formatNumber } from '../../../shared/dates';
import { tr } from '../../../shared/i18n/translate';

/** The largest CSV read: a year of a CGM's readings is about 10 MB. */
export const MAX_CSV_BYTES = 64 * 1024 * 1024;
/** One field longer than this is not a spreadsheet's: the file is not read further. */
const MAX_RECORD_BYTES = 64 * 1024;

const DELIMITERS = [',', ';', '\t'] as const;
export type Delimiter = (typeof DELIMITERS)[number];

/** The refusal of a file over MAX_CSV_BYTES, in the language in force. */
export const tooLargeMessage = (bytes: number) =>
  tr(
    'This CSV is {size} MB; at most {most} MB can be imported at once. Split it into smaller files.',
    {
      size: formatNumber(Math.ceil(bytes / 1024 / 1024), { useGrouping: false }),
      most: formatNumber(MAX_CSV_BYTES / 1024 / 1024),
    },
  );

export class CsvRefusal extends Error {}

/** The delimiter of a header row: the one of the three it holds most of, outside quotes. */
export function delimiterOf(header: string): Delimiter {
  const counts = new Map<Delimiter, number>(DELIMITERS.map((delimiter) => [delimiter, 0]));
  let quoted = false;
  for (const character of header) {
    if (character === '"') quoted = !quoted;
    else if (!quoted && counts.has(character as Delimiter)) {
      counts.set(character as Delimiter, counts.get(character as Delimiter)! + 1);
    }
  }
  let best: Delimiter = ',';
  for (const delimiter of DELIMITERS) {
    if (counts.get(delimiter)! > counts.get(best)!) best = delimiter;
  }
  return best;
}

const UTF16LE_BOM = [0xff, 0xfe];

/** The file's first line, as text, to tell its delimiter by. */
async function firstLine(path: string): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(MAX_RECORD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const bytes = buffer.subarray(0, bytesRead);
    const utf16 = bytes[0] === UTF16LE_BOM[0] && bytes[1] === UTF16LE_BOM[1];
    const text = utf16 ? bytes.subarray(2).toString('utf16le') : bytes.toString('utf8');
    return text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/, 1)[0] ?? '';
  } finally {
    await handle.close();
  }
}

export interface CsvRow {
  /** 1-based, where the row starts, as a spreadsheet numbers lines (the header is line 1). */
  line: number;
  fields: string[];
}

const NEWLINES = /\r\n|\r|\n/g;

/**
 * Every non-empty row of the file, the header first. Throws a CsvRefusal (with a message
 * for the user) when the file is too large or cannot be read as CSV.
 */
export async function* csvRows(path: string): AsyncGenerator<CsvRow> {
  // The file as it is on disk, whatever size it was said to have.
  const { size } = await stat(path);
  if (size > MAX_CSV_BYTES) throw new CsvRefusal(tooLargeMessage(size));
  const delimiter = delimiterOf(await firstLine(path));
  const stream = createReadStream(path);
  const parser = stream.pipe(
    parse({
      delimiter,
      bom: true,
      info: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      max_record_size: MAX_RECORD_BYTES,
    }),
  );
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: string[];
      info: { lines: number };
    }>) {
      // csv-parse counts a record's last line; a quoted field may have spanned several.
      const spanned = record.reduce((sum, field) => sum + (field.match(NEWLINES)?.length ?? 0), 0);
      yield { line: info.lines - spanned, fields: record };
    }
  } catch (error) {
    // csv-parse's message names the line: 'Quote Not Closed: … an opening quote at line 3'.
    // Its words are the parser's own (English), kept as they are inside the sentence.
    if (error instanceof CsvError)
      throw new CsvRefusal(tr('This CSV could not be read: {detail}', { detail: error.message }));
    throw error;
  } finally {
    stream.destroy();
  }
}
