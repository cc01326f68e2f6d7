/**
 * Where a file on /import is, as its line says it (jsdom): waiting for the files before it,
 * read by the server, or waiting there for another import to finish (a server that runs one
 * heavy job at a time), each a status for screen readers.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { startI18n } from '../../lib/i18n';
import { testRoot } from '../../test-root';
import { ProgressLine } from './file-import-parts';

beforeAll(() => startI18n());
const page = testRoot();

describe("an import's progress line", () => {
  it.each([
    ['waiting', 'Waiting for the files before it...'],
    ['reading', 'Reading the file...'],
    ['queued', 'Waiting for another import to finish...'],
  ] as const)('%s: says “%s”', (progress, words) => {
    page.render(<ProgressLine progress={progress} />);
    const status = page.container.querySelector('[role="status"]');
    expect(status?.textContent).toBe(words);
  });

  it('while the file is sent, says how much has gone', () => {
    page.render(<ProgressLine progress={{ sent: 25, total: 100 }} />);
    expect(page.container.querySelector('[role="status"] span')?.textContent).toBe(
      'Sending the file... 25%',
    );
  });
});
