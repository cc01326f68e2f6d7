/**
 * Reads a CSV file brought in on /import (CONTRACT §6): its header row tells what it holds
 * (csv-header.ts: measurements, lab results, or Dexcom Clarity's export), then each row is
 * read as a stream from the spooled file, a row that does not read set aside as a problem
 * by its line, and the rest read on. A file of no known header, over the bounds
 * (csv-rows.ts), or whose slashed dates do not say which way round they go is refused
 * whole, with a message for the user (decision 0056).
 */
import { formatNumber } from '../../../shared/dates';
import { key, tr } from '../../../shared/i18n/translate';
import type { FileReader, ReadFileResult } from '../file-readers';
import { knownTimeZone } from './csv-dates';
import { DexcomRows } from './csv-dexcom';
import { readHeader, unknownHeader } from './csv-header';
import { LabResultRows } from './csv-lab-results';
import { MeasurementRows } from './csv-measurements';
import { CsvReading } from './csv-result';
import { CsvRefusal, csvRows } from './csv-rows';

const refuse = (message: string): ReadFileResult => ({ ok: false, message });

/**
 * The most rows read, the header's not counted (decision 0056): each row of measurements or
 * lab results is a record held until the import writes it (100,000 read in about 10 s and
 * 200 MB); a CGM's readings become one entry an hour, so a Clarity export may hold nine
 * years of five-minute readings.
 */
export const MAX_ROWS = { measurements: 100_000, 'lab-results': 100_000, dexcom: 1_000_000 };

/** Each kind's refusal: a sentence of its own, so that each language words the kind its way. */
const TOO_MANY_ROWS = {
  measurements: key(
    'This CSV has more than {most} rows; at most {most} rows of measurements can be imported at once. Split it into smaller files.',
  ),
  'lab-results': key(
    'This CSV has more than {most} rows; at most {most} rows of lab results can be imported at once. Split it into smaller files.',
  ),
  dexcom: key(
    'This CSV has more than {most} rows; at most {most} rows of Dexcom readings can be imported at once. Split it into smaller files.',
  ),
};

export const tooManyRows = (kind: keyof typeof MAX_ROWS) =>
  tr(TOO_MANY_ROWS[kind], { most: formatNumber(MAX_ROWS[kind]) });

export const readCsvFile: FileReader = async (file, options) => {
  const timeZone = knownTimeZone(options.timeZone ?? 'UTC');
  if (!timeZone) {
    return refuse(
      tr("'{zone}' is not a time zone Kin Health knows.", { zone: String(options.timeZone) }),
    );
  }
  const reading = new CsvReading();
  let rows: MeasurementRows | LabResultRows | DexcomRows | null = null;
  let kind: keyof typeof MAX_ROWS = 'measurements';
  let count = 0;
  try {
    for await (const row of csvRows(file.path)) {
      if (rows) {
        count += 1;
        if (count > MAX_ROWS[kind]) return refuse(tooManyRows(kind));
        rows.row(row);
        continue;
      }
      const header = readHeader(row.fields);
      if ('refusal' in header) return refuse(header.refusal);
      kind = header.kind;
      rows =
        header.kind === 'measurements'
          ? new MeasurementRows(header, reading, options, timeZone)
          : header.kind === 'lab-results'
            ? new LabResultRows(header, reading, timeZone)
            : new DexcomRows(header, reading, options, timeZone);
    }
  } catch (error) {
    if (error instanceof CsvRefusal) return refuse(error.message);
    throw error;
  }
  if (!rows) return refuse(unknownHeader());
  if (rows instanceof DexcomRows) return reading.finish(rows.finish());
  const refusal = rows.finish();
  if (refusal) return refuse(refusal.refusal);
  return reading.finish(null);
};
