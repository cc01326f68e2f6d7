/**
 * A field's messages are worded when a value is checked, in the language in force then: the
 * same schema refuses in German after the language changes, and in English again after.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../i18n/catalogue';
import {
  createI18n,
  englishTranslator,
  setTranslatorSource,
  translatorOf,
} from '../i18n/translate';
import { allergyDefinition } from './allergies';
import { vitalDefinition } from './vitals';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? null : (result.error?.issues[0]?.message ?? null);

describe('validation messages', () => {
  afterEach(() => setTranslatorSource(() => englishTranslator));

  it('are worded in the language in force when a value is checked', async () => {
    const schema = allergyDefinition.fields.substance.schema;
    expect(firstMessage(schema.safeParse(''))).toBe('Substance is required');

    const german = translatorOf(createI18n('de', await loadCatalogue('de')), 'de');
    setTranslatorSource(() => german);
    expect(firstMessage(schema.safeParse(''))).toBe('Substanz ist erforderlich');
    expect(firstMessage(allergyDefinition.fields.severity.schema.safeParse('Worst'))).toBe(
      'Schweregrad muss einer dieser Werte sein: Leicht, Mittel, Schwer',
    );

    setTranslatorSource(() => englishTranslator);
    expect(firstMessage(schema.safeParse(''))).toBe('Substance is required');
  });

  it('word a measure out of range with its translated name', async () => {
    const french = translatorOf(createI18n('fr', await loadCatalogue('fr')), 'fr');
    setTranslatorSource(() => french);
    expect(firstMessage(vitalDefinition.fields.weight_kg.schema.safeParse(9999))).toBe(
      'Poids : la valeur doit être comprise entre 0.2 et 500 kg',
    );
  });
});
