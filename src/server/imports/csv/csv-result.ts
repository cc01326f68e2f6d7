/**
 * What reading a CSV gathers as it goes, whatever the file holds: the rows it could not read
 * (each by its line and why; the first MAX_LISTED_PROBLEMS listed, all counted), what it
 * leaves out and why, and, at the end, the records in the shape every file reader gives
 * (file-readers.ts), so the import matches and writes them as it does a FHIR file's.
 */
import type { RowProblem } from '../../../shared/imports';
import type { FilePatient, ReadFile } from '../file-readers';
import { importSummary, type ImportedRecords } from '../../fhir/fhir-import';
import { FHIR_RECORD_TYPES } from '../../fhir/fhir-source';
import { tr } from '../../../shared/i18n/translate';

/** The most problem rows listed; the rest are counted. */
export const MAX_LISTED_PROBLEMS = 100;

export const moreProblemsReason = (listed: number) =>
  tr('Lines that could not be read (the first {listed} are listed)', { listed });

/** `'abc'`, cut short when long, for a message that quotes a cell. */
export const quoted = (text: string) => `'${text.length > 40 ? `${text.slice(0, 39)}…` : text}'`;

/** A zod error's messages, as one sentence. */
export const issuesOf = (error: { issues: { message: string }[] }) =>
  [...new Set(error.issues.map((issue) => issue.message))].join('; ');

export class CsvReading {
  readonly problems: RowProblem[] = [];
  private problemCount = 0;
  readonly skipped: Record<string, number> = {};
  readonly records = Object.fromEntries(
    FHIR_RECORD_TYPES.map((type) => [type, []]),
  ) as unknown as ImportedRecords;
  /** Filled cells of columns no record reads, by column. */
  private readonly unreadCells = new Map<string, number>();
  /** How many records had each source id so far: the second of one moment is `#2`. */
  private readonly sources = new Map<string, number>();

  problem(line: number, message: string): void {
    this.problemCount += 1;
    if (this.problems.length < MAX_LISTED_PROBLEMS) this.problems.push({ line, message });
  }

  /** Counts a row's filled cells in the columns no record reads, to say they were left out. */
  unread(fields: string[], columns: readonly { index: number; header: string }[]): void {
    for (const { index, header } of columns) {
      if (fields[index]?.trim())
        this.unreadCells.set(header, (this.unreadCells.get(header) ?? 0) + 1);
    }
  }

  skip(reason: string, count = 1): void {
    if (count > 0) this.skipped[reason] = (this.skipped[reason] ?? 0) + count;
  }

  /**
   * A source id, the same on every import of the same file: the base names the record's
   * moment (and test), so a row corrected since is the same record, 'changed'; several
   * records of one moment are told apart by their order (decision 0056).
   */
  sourceId(base: string): string {
    const seen = (this.sources.get(base) ?? 0) + 1;
    this.sources.set(base, seen);
    return seen === 1 ? base : `${base}#${seen}`;
  }

  finish(patient: FilePatient | null): ReadFile {
    for (const [header, count] of this.unreadCells) {
      this.skip(
        tr("Values in column '{column}' (not a column Kin Health reads)", { column: header }),
        count,
      );
    }
    this.problems.sort((a, b) => a.line - b.line);
    if (this.problemCount > this.problems.length) {
      this.skip(moreProblemsReason(this.problems.length), this.problemCount);
    }
    const imported = Object.fromEntries(
      FHIR_RECORD_TYPES.filter((type) => this.records[type].length > 0).map((type) => [
        type,
        this.records[type].length,
      ]),
    );
    const reasons = Object.entries(this.skipped).map(([reason, count]) =>
      tr('{reason}: {number}', { reason, number: count }),
    );
    const summary = [importSummary(imported, {}), ...reasons].join('; ');
    return {
      kind: 'csv',
      patient,
      problems: this.problems,
      records: {
        ok: true,
        records: this.records,
        documents: [],
        imported,
        skipped: this.skipped,
        skipped_documents: [],
        summary,
      },
    };
  }
}
