/**
 * Right-to-left text put in lines and in visual order for the PDF library: each line's runs
 * from left to right, as handed to pdfkit (which reverses a run that starts with Arabic).
 */
import { describe, expect, it } from 'vitest';
import { bidiLevels, isLeftToRight, paragraphLines } from './right-to-left-lines';

/** One unit a character: a line of `width` holds that many. */
const byCharacters = (width: number, direction: 'rtl' | 'auto' = 'rtl') => ({
  measure: (text: string) => Array.from(text).length,
  width,
  direction,
});

describe('right-to-left lines', () => {
  it('keep a line of Arabic words as one run, its spaces single, in reading order', () => {
    expect(paragraphLines('لا توجد سجلات', byCharacters(80))).toEqual([['لا توجد سجلات']]);
  });

  it('break a paragraph at its spaces, each line in order, none lost or doubled', () => {
    const note = 'يتناول المريض دواء الضغط مرة واحدة كل يوم بعد الفطور';
    const lines = paragraphLines(note, byCharacters(20));
    expect(lines.length).toBeGreaterThan(2);
    for (const runs of lines) {
      expect(runs).toHaveLength(1);
      expect(runs[0]!.length).toBeLessThanOrEqual(20);
      expect(runs[0]).toMatch(/^\S+( \S+)*$/u);
    }
    expect(lines.map((runs) => runs[0]).join(' ')).toBe(note);
  });

  it('put numbers and Latin words inside Arabic left to right, where a browser puts them', () => {
    // Seen from left to right: the last word first, 'Mayo Clinic' as it is written.
    expect(paragraphLines('في عيادة Mayo Clinic اليوم', byCharacters(80))).toEqual([
      ['اليوم', ' ', 'Mayo Clinic', ' ', 'في عيادة'],
    ]);
    // A number after Arabic is an Arabic number (W2): '120/80' stays whole.
    expect(paragraphLines('الضغط 120/80 صباحا', byCharacters(80))).toEqual([
      ['صباحا', ' ', '120/80', ' ', 'الضغط'],
    ]);
    expect(paragraphLines('6 نوفمبر 2020', byCharacters(80))).toEqual([
      ['2020', ' ', 'نوفمبر', ' ', '6'],
    ]);
  });

  it('mirror brackets on a right-to-left level, and not those of Latin text', () => {
    // Handed over in logical order with each bracket mirrored: the library's reversal puts
    // the opening one on the right, facing the words.
    expect(paragraphLines('(الهدف أقل)', byCharacters(80))).toEqual([[')الهدف أقل(']]);
    expect(paragraphLines('لقاح Tdap (adult)', byCharacters(80))).toEqual([
      ['Tdap (adult)', ' ', 'لقاح'],
    ]);
  });

  it('read what a person typed in its own direction, right to left when it has none', () => {
    expect(isLeftToRight('250 mg', 'auto')).toBe(true);
    expect(isLeftToRight('Take with food.', 'auto')).toBe(true);
    expect(isLeftToRight('250 mg', 'rtl')).toBe(false);
    expect(isLeftToRight('دواء 250 mg', 'auto')).toBe(false);
    expect(isLeftToRight('3/10', 'auto')).toBe(false);
    // Latin first: a left-to-right paragraph, the Arabic in it reversed in place.
    expect(paragraphLines('Amoxicillin مرتين يوميا', byCharacters(80, 'auto'))).toEqual([
      ['Amoxicillin', ' ', 'مرتين يوميا'],
    ]);
    expect(bidiLevels(Array.from('a ب'), 'auto').paragraphLevel).toBe(0);
    expect(bidiLevels(Array.from('ب a'), 'auto').paragraphLevel).toBe(1);
  });

  it('never start or end a run with a space, which pdfmake would trim from a line', () => {
    for (const runs of paragraphLines('دواء 250 mg مرتين في اليوم (صباحا)', byCharacters(14))) {
      expect(runs.join('')).not.toMatch(/^\s|\s$/u);
      for (const run of runs) expect(run === ' ' || !/^\s|\s$/u.test(run)).toBe(true);
    }
  });

  it('cut a word wider than a line between its characters', () => {
    const lines = paragraphLines('رابط https://example.com/a/very/long/path', byCharacters(12));
    expect(lines.map((runs) => runs.join(''))).toEqual([
      'رابط',
      'https://exam',
      'ple.com/a/ve',
      'ry/long/path',
    ]);
  });
});
