/**
 * The viewer speaks the language its address names (CONTRACT §6), with that language's
 * words, dates and direction: here Arabic, right to left.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { currentLanguage, tr } from '../../shared/i18n/translate';
import { summarizeBundle } from './bundle-summary';
import { day } from './bundle-words';
import { startViewerI18n } from './viewer-i18n';

beforeAll(async () => {
  window.history.replaceState(null, '', '/shl?lang=ar#shlink:/e30');
  await startViewerI18n();
});

describe('the viewer in the language its address names', () => {
  it('speaks it, right to left, from the first words', () => {
    expect(currentLanguage()).toBe('ar');
    expect(document.documentElement.lang).toBe('ar');
    expect(document.documentElement.dir).toBe('rtl');
    expect(document.title).toBe('سجلات صحية مشتركة · Kin Health');
    expect(tr('Open')).toBe('فتح');
  });

  it("writes the summary's words and dates in it", () => {
    const summary = summarizeBundle({
      resourceType: 'Bundle',
      type: 'collection',
      entry: [
        { resource: { resourceType: 'Patient', name: [{ text: 'Leo Garcia' }] } },
        {
          resource: {
            resourceType: 'Immunization',
            status: 'completed',
            vaccineCode: { text: 'MMR' },
            patient: { reference: 'Patient/leo' },
          },
        },
      ],
    });
    expect(summary.sections[0]?.heading).toBe('Allergies');
    const immunizations = summary.sections.find((s) => s.heading === 'Immunizations');
    expect(immunizations?.items[0]?.details).toEqual(['التاريخ غير معروف']);
    expect(day('2017-04-12')).toBe(
      new Intl.DateTimeFormat('ar-u-nu-latn', {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
      }).format(new Date(2017, 3, 12)),
    );
    expect(day('2017-04-12')).toMatch(/2017/);
  });
});
