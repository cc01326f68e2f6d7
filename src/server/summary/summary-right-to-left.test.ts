/**
 * The summary PDF in Arabic as a reader gets it: each line of a paragraph that wraps reads
 * right to left, its words apart by one space, numbers and Latin words left to right. Read
 * back with poppler's pdftotext, in reading order (`-layout`) and word by word where each
 * word is drawn (`-bbox`).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runInLanguage, startServerLanguages } from '../i18n/server-language';
import { pdfText } from '../test/pdf-text';
import { renderSummaryPdf } from './render-summary-pdf';
import { emptySummary } from './summary-factories';

beforeAll(() => startServerLanguages());

/** Words with no lam-alef ligature: pdftotext gives its letters back in the wrong order. */
const WRAPPED_NOTE =
  'يتناول المريض دواء الضغط مرة واحدة كل يوم بعد الفطور ويقيس ضغط الدم صباحا ومساء ويكتب القراءات في دفتر صغير ويراجع طبيبه كل شهرين';
const MIXED_NOTE = 'يقيس الضغط 120/80 في عيادة Mayo Clinic كل شهر';

function arabicSummary() {
  return emptySummary({
    person: { id: 'p', name: 'ليلى حداد', date_of_birth: '1990-03-04' },
    conditions: [
      {
        condition_name: 'ارتفاع ضغط الدم',
        status: 'Chronic',
        diagnosis_date: null,
        notes: WRAPPED_NOTE,
      },
      { condition_name: 'السكري', status: null, diagnosis_date: null, notes: MIXED_NOTE },
    ],
  });
}

const render = () =>
  runInLanguage('ar', () => renderSummaryPdf(arabicSummary(), { timeZone: 'UTC' }));

/** pdftotext marks a right-to-left line with embedding controls: taken out. */
const withoutControls = (text: string) => text.replace(/[\u202A-\u202E]/gu, '');

interface Word {
  text: string;
  xMin: number;
  xMax: number;
  yMin: number;
}

/** Each word pdftotext finds, where it is drawn; its letters in the order they are drawn. */
async function wordsOf(pdf: Buffer): Promise<Word[]> {
  const xml = await pdfText(pdf, ['-bbox']);
  return [
    ...xml.matchAll(/xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)</g),
  ].map(([, xMin, yMin, xMax, text]) => ({
    text: text!,
    xMin: Number(xMin),
    yMin: Number(yMin),
    xMax: Number(xMax),
  }));
}

describe('the summary PDF right to left', () => {
  it('reads a wrapped cell line by line in order, its words one space apart', async () => {
    const layout = withoutControls(await pdfText(await render(), ['-layout']));
    // The notes are the leftmost column: the first of the columns on each line.
    const firsts = layout.split('\n').map((line) => line.trim().split(/\s{2,}/u)[0] ?? '');
    const start = firsts.findIndex((first) => WRAPPED_NOTE.startsWith(`${first} `));
    expect(start).toBeGreaterThanOrEqual(0);
    const lines: string[] = [];
    while (lines.join(' ').length < WRAPPED_NOTE.length) lines.push(firsts[start + lines.length]!);
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines) expect(line).toMatch(/^\S+( \S+)*$/u);
    expect(lines.join(' ')).toBe(WRAPPED_NOTE);
  });

  it('keeps numbers and Latin words inside Arabic left to right, the words right to left', async () => {
    const words = await wordsOf(await render());
    const first = words.find((word) => word.text === 'سيقي'); // 'يقيس' as drawn
    expect(first).toBeDefined();
    // The note's lines, each from right to left (its column is left of x = 250); an Arabic
    // word's letters back in reading order.
    const line = words
      .filter((word) => word.yMin >= first!.yMin - 1 && word.yMin < first!.yMin + 25)
      .filter((word) => word.xMax < 250)
      .sort((a, b) => a.yMin - b.yMin || b.xMax - a.xMax)
      .map((word) =>
        /\p{Script=Arabic}/u.test(word.text) ? Array.from(word.text).reverse().join('') : word.text,
      );
    // 'Mayo Clinic' is written left to right: read from the right, 'Clinic' comes first.
    expect(line).toEqual(['يقيس', 'الضغط', '120/80', 'في', 'عيادة', 'Clinic', 'Mayo', 'كل', 'شهر']);
  });

  it('keeps the words of its section headings in reading order', async () => {
    const layout = withoutControls(await pdfText(await render(), ['-layout']));
    for (const heading of ['فريق الرعاية', 'التاريخ العائلي', 'الزيارات القادمة']) {
      expect(layout).toContain(heading);
    }
  });
});
