/**
 * Documents: each account's storage limit (DOCUMENT_QUOTA_MB) and the languages their text
 * is read in by OCR (OCR_LANGUAGES).
 */
import { z } from 'zod';
import { DEFAULT_DOCUMENT_QUOTA_MB } from '../../shared/documents';
import { checked, unsetIfEmpty } from './env';

const OCR_LANGUAGE = /^[a-z]{3}(_[a-z]+)?$/;

const languagesOf = (value: string) => value.split(/[+,]/).map((language) => language.trim());

export const documentsEnv = z
  .object({
    DOCUMENT_QUOTA_MB: unsetIfEmpty(
      checked(
        (value) => /^\d+$/.test(value) && Number.isSafeInteger(Number(value)) && Number(value) >= 1,
        (value) =>
          `DOCUMENT_QUOTA_MB must be a whole number of megabytes (1 or more), not "${value}"`,
      )
        .transform(Number)
        .default(DEFAULT_DOCUMENT_QUOTA_MB),
    ),
    /**
     * Tesseract's language codes joined by `+` or `,` ('eng+deu'); each one's data comes from
     * its npm package `@tesseract.js-data/<code>`, never from the network. Blank is English.
     */
    OCR_LANGUAGES: z.preprocess(
      (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
      checked(
        (value) => languagesOf(value).every((language) => OCR_LANGUAGE.test(language)),
        (value) =>
          `OCR_LANGUAGES must be Tesseract language codes joined by + (e.g. eng+deu), not "${value}"`,
      )
        .transform((value) => [...new Set(languagesOf(value))])
        .default(() => ['eng']),
    ),
  })
  .transform((env) => ({
    documentQuotaMb: env.DOCUMENT_QUOTA_MB,
    ocrLanguages: env.OCR_LANGUAGES,
  }));
