/**
 * What OCR keeps of what it read: the lines read with confidence, in the engine's layout.
 */
import { describe, expect, it } from 'vitest';
import { confidentText, MIN_LINE_CONFIDENCE, type ReadBlock } from './confident-text';

const line = (text: string, confidence: number) => ({ text: `${text}\n`, confidence });

describe('the text OCR keeps', () => {
  it('is every line read with confidence, a blank line between paragraphs, as the engine writes it', () => {
    const blocks: ReadBlock[] = [
      {
        paragraphs: [{ lines: [line('Patient: Mia Example', 94), line('Amoxicillin 250 mg', 95)] }],
      },
      { paragraphs: [{ lines: [line('Refills: 0', 85)] }, { lines: [line('Dr. Alvarez', 70)] }] },
    ];
    expect(confidentText(blocks)).toBe(
      'Patient: Mia Example\nAmoxicillin 250 mg\n\nRefills: 0\n\nDr. Alvarez',
    );
  });

  it('leaves out the lines read from noise, and a paragraph left with none', () => {
    const blocks: ReadBlock[] = [
      { paragraphs: [{ lines: [line('oo a . =', 3), line('Sea', MIN_LINE_CONFIDENCE - 1)] }] },
      {
        paragraphs: [
          { lines: [line('Hemoglobin 12.1 g/dL', MIN_LINE_CONFIDENCE), line('- a', 0)] },
          { lines: [line('Ra Re . :', 12)] },
        ],
      },
    ];
    expect(confidentText(blocks)).toBe('Hemoglobin 12.1 g/dL');
  });

  it('is empty when nothing was read', () => {
    expect(confidentText(null)).toBe('');
    expect(confidentText([])).toBe('');
    expect(confidentText([{ paragraphs: [{ lines: [line('~ -', 0)] }] }])).toBe('');
  });
});
