/**
 * For the CSV reader's tests: a text written to a file of its own, read as the import
 * reads a spooled upload; each test file's files are removed after its tests.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import type { ReadFile, ReadFileResult, ReadOptions } from '../file-readers';
import { readCsvFile } from './read-csv';

/** Call once at the top of a test file. */
export function useCsvFiles() {
  const folder = mkdtempSync(join(tmpdir(), 'kin-csv-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  let written = 0;
  /** A file holding the text (or bytes), as an upload is spooled. */
  const csvFile = (content: string | Buffer, name = 'data.csv') => {
    written += 1;
    const path = join(folder, `${written}-${name}`);
    writeFileSync(path, content);
    return { path, name, size: Buffer.byteLength(content) };
  };
  const readCsvText = (content: string | Buffer, options: ReadOptions = {}) =>
    readCsvFile(csvFile(content), options);
  return { folder, csvFile, readCsvText };
}

/** A result that must have been read, not refused. */
export function read(result: ReadFileResult): ReadFile {
  if (!('kind' in result)) throw new Error(`refused: ${result.message}`);
  return result;
}

/** A result that must have been refused: its message. */
export function refusal(result: ReadFileResult): string {
  if ('kind' in result) throw new Error(`read, not refused: ${result.records.summary}`);
  return result.message;
}
