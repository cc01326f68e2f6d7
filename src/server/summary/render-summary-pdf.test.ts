/**
 * The PDF summary as a reader gets it: its text read back with poppler's pdftotext, so what is
 * checked is what can be searched, selected and read aloud, not what was meant to be drawn.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PersonSummary } from '../../shared/person-summary';
import { runInLanguage, startServerLanguages } from '../i18n/server-language';
import { renderSummaryPdf } from './render-summary-pdf';
import { busySummary, emptySummary, fullSummary, SUMMARY_HEADINGS } from './summary-factories';
import { summaryPdfmake } from './summary-pdfmake';

const run = promisify(execFile);
const HEADINGS = SUMMARY_HEADINGS;

let folder: string;
let files = 0;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'kin-summary-'));
  await startServerLanguages();
});
afterAll(() => rm(folder, { recursive: true, force: true }));

async function saved(pdf: Buffer): Promise<string> {
  const file = join(folder, `summary-${++files}.pdf`);
  await writeFile(file, pdf);
  return file;
}

/**
 * The text of each page, as `pdftotext -layout` reads it (columns side by side), or in `raw`
 * order (each cell's text whole, in the order it was written).
 */
async function pagesOf(pdf: Buffer, mode: 'layout' | 'raw' = 'layout'): Promise<string[]> {
  const file = await saved(pdf);
  const { stdout } = await run('pdftotext', [`-${mode}`, '-enc', 'UTF-8', file, '-'], {
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout.split('\f').slice(0, -1);
}

/** The right edge of the rightmost word on any page, in points. */
async function rightmostWordEdge(pdf: Buffer): Promise<number> {
  const { stdout } = await run('pdftotext', ['-bbox', await saved(pdf), '-'], {
    maxBuffer: 64 * 1024 * 1024,
  });
  return Math.max(...[...stdout.matchAll(/xMax="([\d.]+)"/g)].map((match) => Number(match[1])));
}

async function render(summary: PersonSummary, timeZone = 'Europe/Oslo') {
  const pdf = await renderSummaryPdf(summary, { timeZone });
  return { pdf, pages: await pagesOf(pdf) };
}

/** The lines of a text with the spaces that lay it out in columns taken out. */
const linesOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim().replace(/\s{2,}/g, ' | '))
    .filter(Boolean);

describe('the PDF summary', () => {
  it('holds the person, every section with its record, and page numbers', async () => {
    const { pdf, pages } = await render(fullSummary());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pages.join('\n');
    const lines = linesOf(text);

    expect(lines).toContain('Health Summary');
    expect(lines).toContain('Zoë Ødegård');
    expect(lines).toContain('Date of birth: March 4, 1990 | Generated: March 4, 2030');
    expect(text).toContain('not a clinical document');
    for (const heading of HEADINGS) expect(lines, heading).toContain(heading);

    expect(lines).toContain(
      'Penicillin | Hives & swelling ("severe") | Severe | Medication | Active | June 1, 2015',
    );
    expect(lines).toContain(
      'Lisinopril | 10 mg | Twice Daily | Hypertension | Dr. Ελένη | January 15, 2029',
    );
    expect(lines).toContain('Morning, Evening | Παπαδοπούλου');
    expect(
      lines.some((line) => line.startsWith('Hypertension | Chronic | November 30, 2028')),
    ).toBe(true);
    expect(lines).toContain('Type 2 diabetes | Father (Иван) | Active | December 31, 1999');
    expect(lines).toContain('Tetanus (Td) | September 9, 2027 | Øst Clinic, Oslo');
    expect(lines).toContain(
      'March 4, 2030, 9:30 AM | Annual check-up | Dr. Иван Петров | Smith & Sons Family Practice',
    );
    expect(lines).toContain(
      'Acme Health | Medical | POL-778899 | GRP-4455 | Current | January 1, 2030 –',
    );
    expect(lines).toContain('December 31, 2030');
    expect(lines).toContain(
      'Dr. Ελένη | Doctor | Cardiology | +47 22 33 44 55 | Storgata 1, 0155 Oslo',
    );
    expect(lines).toContain('Παπαδοπούλου | eleni@clinic.example');
    expect(text).toMatch(/Kin Health · Zoë Ødegård · Generated March 4, 2030 .*Page 1 of 1/);
    expect(await rightmostWordEdge(pdf)).toBeLessThanOrEqual(595.28 - 48 + 0.5);
  });

  it('shows visits in the time zone it is given, and calendar dates as they are', async () => {
    const { pages } = await render(fullSummary(), 'America/New_York');
    const lines = linesOf(pages.join('\n'));
    expect(lines.some((line) => line.startsWith('March 4, 2030, 3:30 AM | Annual check-up'))).toBe(
      true,
    );
    expect(lines).toContain('Date of birth: March 4, 1990 | Generated: March 4, 2030');
  });

  it('refuses a time zone that does not exist', async () => {
    await expect(renderSummaryPdf(fullSummary(), { timeZone: 'Nowhere/Town' })).rejects.toThrow(
      RangeError,
    );
  });

  it("says 'None recorded' under every heading of an empty summary", async () => {
    const { pages } = await render(emptySummary());
    expect(pages).toHaveLength(1);
    const lines = linesOf(pages[0]!);
    for (const heading of HEADINGS) {
      expect(lines[lines.indexOf(heading) + 1], heading).toBe('None recorded');
    }
    expect(lines.filter((line) => line === 'None recorded')).toHaveLength(HEADINGS.length);
  });

  it('says under a section how many of its rows it leaves out, in the reader’s language', async () => {
    const summary = fullSummary();
    summary.not_shown = { allergies: 1234, care_team: 1 };
    const lines = linesOf((await render(summary)).pages.join('\n'));
    const allergies = lines.indexOf('Allergies');
    const conditions = lines.indexOf('Current Medications');
    const line = lines.indexOf('…and 1,234 more, not shown in this summary');
    // Under the allergies' rows, before the next section.
    expect(line).toBeGreaterThan(allergies);
    expect(line).toBeLessThan(conditions);
    expect(lines).toContain('…and 1 more, not shown in this summary');
    const russian = await runInLanguage('ru', () => renderSummaryPdf(summary, { timeZone: 'UTC' }));
    const text = (await pagesOf(russian)).join('\n');
    expect(text).toContain('…и ещё 1 234 записи, не вошедшие в эту сводку');
    expect(text).toContain('…и ещё 1 запись, не вошедшая в эту сводку');
    const arabic = await runInLanguage('ar', () => renderSummaryPdf(summary, { timeZone: 'UTC' }));
    // Its words right to left, the number among them (pdftotext's order for the line).
    expect((await pagesOf(arabic)).join('\n')).toMatch(/لم ترد في هذا الملخص.*(1,234|١٬٢٣٤)/u);
  });

  it('writes names in Latin with diacritics, Greek and Cyrillic as text, in an embedded font', async () => {
    const names = ['Zoë Ødegård', 'Ελένη Παπαδοπούλου', 'Иван Петров', 'Łukasz Żółć', 'Ţară Ăşî'];
    const summary = emptySummary({
      person: { id: 'p', name: names.join(' · '), date_of_birth: null },
      conditions: names.map((name) => ({
        condition_name: name,
        status: null,
        diagnosis_date: null,
        notes: null,
      })),
    });
    const { pdf, pages } = await render(summary);
    const text = pages.join('\n');
    for (const name of names) expect(text).toContain(name);
    expect(linesOf(text)).toContain('Date of birth: Not recorded | Generated: March 4, 2030');

    const { stdout: fonts } = await run('pdffonts', [await saved(pdf)]);
    const fontLines = fonts.split('\n').slice(2).filter(Boolean);
    expect(fontLines.length).toBeGreaterThan(0);
    for (const line of fontLines) {
      // name, type, encoding, embedded, subset, unicode map
      expect(line).toMatch(/DejaVuSansCondensed.* CID TrueType +Identity-H +yes +yes +yes/);
    }
  });

  it('carries title, author, subject and language', async () => {
    const { pdf } = await render(fullSummary());
    const { stdout } = await run('pdfinfo', ['-enc', 'UTF-8', await saved(pdf)]);
    expect(stdout).toMatch(/Title: +Health Summary: Zoë Ødegård/);
    expect(stdout).toMatch(/Author: +Zoë Ødegård/);
    expect(stdout).toMatch(/Subject: +Health Summary of Zoë Ødegård, generated March 4, 2030/);
    expect(stdout).toMatch(/Creator: +Kin Health/);
    expect(pdf.toString('latin1')).toContain('/Lang (en)');
  });

  it('repeats the section heading and column headers on every page a long table runs onto', async () => {
    const { pages } = await render(busySummary());
    expect(pages.length).toBeGreaterThan(10);
    pages.forEach((page, i) => {
      expect(page).toContain(`Page ${i + 1} of ${pages.length}`);
    });
    const later = pages.filter((page) => page.includes('Condition 500'));
    expect(later).toHaveLength(1);
    const lines = linesOf(later[0]!);
    expect(lines[0]).toBe('Conditions');
    expect(lines[1]).toBe('Condition | Status | Since | Notes');
    const visits = pages.findLast((page) => page.includes('Follow-up visit 300'));
    expect(linesOf(visits!).slice(0, 2)).toEqual([
      'Upcoming Visits',
      'Date and time | Visit | Doctor | Place',
    ]);
  });

  it('keeps every line of a very long note, and long words within the page', async () => {
    const sentence = 'Headaches in the evening, relieved by rest; reviewed at each visit. ';
    const note = sentence.repeat(150).trim();
    const link = `https://example.com/${'a'.repeat(400)}`;
    const summary = fullSummary();
    summary.conditions = [
      { condition_name: 'Migraine', status: 'Active', diagnosis_date: null, notes: note },
      { condition_name: 'X'.repeat(200), status: null, diagnosis_date: null, notes: link },
    ];
    const { pdf, pages } = await render(summary);
    expect(pages.length).toBeGreaterThan(3);
    // The note runs over pages: read it without the footers and repeated headings between.
    const repeated = new Set(['Conditions', 'Condition Status Since Notes']);
    const text = (await pagesOf(pdf, 'raw'))
      .flatMap((page) => page.split('\n'))
      .filter((line) => !repeated.has(line) && !line.startsWith('Kin Health · '))
      .join('')
      .replace(/\s+/g, '');
    expect(text).toContain(note.replace(/\s+/g, ''));
    expect(text).toContain(link);
    expect(text).toContain('X'.repeat(200));
    expect(await rightmostWordEdge(pdf)).toBeLessThanOrEqual(595.28 - 48 + 0.5);
  });

  it('keeps text that looks like a URL or a file as text: nothing is fetched, read or linked', async () => {
    const pointers = [
      'https://example.com/tracker.png',
      'http://169.254.169.254/latest/meta-data/',
      'file:///etc/passwd',
      '/etc/passwd',
      'data:image/png;base64,iVBORw0KGgo=',
    ];
    const summary = fullSummary();
    summary.person.name = pointers[0]!;
    summary.allergies = pointers.map((pointer) => ({
      substance: pointer,
      reaction: pointer,
      severity: null,
      category: null,
      status: 'Active',
      noted_date: null,
    }));
    summary.care_team[0]!.email = pointers[2]!;
    summary.care_team[0]!.address = pointers[1]!;

    await renderSummaryPdf(fullSummary(), { timeZone: 'UTC' }); // fonts are read on first use
    const fetches = vi.spyOn(globalThis, 'fetch');
    const reads = vi.spyOn(fs, 'readFileSync');
    const opens = vi.spyOn(fs, 'openSync');
    try {
      const pdf = await renderSummaryPdf(summary, { timeZone: 'UTC' });
      expect(fetches).not.toHaveBeenCalled();
      expect(reads).not.toHaveBeenCalled();
      expect(opens).not.toHaveBeenCalled();

      // A long pointer wraps inside its cell: compare without the line breaks.
      const text = (await pagesOf(pdf, 'raw')).join('').replace(/\s+/g, '');
      for (const pointer of pointers) expect(text).toContain(pointer);
      const raw = pdf.toString('latin1');
      const markers = ['/Annots', '/URI', '/Launch', '/GoToR', '/EmbeddedFile', '/Subtype /Image'];
      for (const marker of markers) {
        expect(raw, marker).not.toContain(marker);
      }
    } finally {
      fetches.mockRestore();
      reads.mockRestore();
      opens.mockRestore();
    }
  });

  it('is set up so that no document can fetch a URL or read a file', async () => {
    const pdfmake = summaryPdfmake();
    const fetches = vi.spyOn(globalThis, 'fetch');
    try {
      await expect(
        pdfmake
          .createPdf({
            content: [{ image: 'remote' }],
            images: { remote: 'https://example.com/x.png' },
          })
          .getBuffer(),
      ).rejects.toThrow(/Access to URL denied/);
      expect(fetches).not.toHaveBeenCalled();
      await expect(
        pdfmake.createPdf({ content: [{ image: '/etc/hostname' }] }).getBuffer(),
      ).rejects.toThrow(/Access to local file denied/);
      await expect(
        pdfmake
          .createPdf({ content: ['x'], files: { secret: { src: '/etc/hostname' } } })
          .getBuffer(),
      ).rejects.toThrow(/Access to local file denied/);
    } finally {
      fetches.mockRestore();
    }
  });
});
