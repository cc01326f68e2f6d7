/**
 * A CSV's header refusals in the reader's language (issue 54): the words around the columns
 * translated, the columns named as the file names them, choices joined the language's way.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runInLanguage, startServerLanguages } from '../../i18n/server-language';
import { readHeader } from './csv-header';

beforeAll(() => startServerLanguages());

describe('a CSV header refused in the reader’s language', () => {
  it('names a column twice in Spanish, and in English as before', () => {
    const spanish = runInLanguage('es', () => readHeader(['Date', 'Weight (kg)', 'Weight (kg)']));
    expect(spanish).toEqual({ refusal: "La columna 'Weight (kg)' aparece dos veces." });
    const english = readHeader(['Date', 'Weight (kg)', 'Weight (kg)']);
    expect(english).toEqual({ refusal: "The column 'Weight (kg)' appears twice." });
  });

  it('asks for a date column in German, the choices joined with oder', () => {
    const german = runInLanguage('de', () => readHeader(['Weight (kg)']));
    expect(german).toEqual({
      refusal:
        "Dieser CSV mit Messwerten fehlt die Spalte 'Date' oder 'Measured At', die angibt, wann jede Zeile gemessen wurde.",
    });
  });
});
