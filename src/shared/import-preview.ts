/**
 * An import in two steps (POST /api/import): first `?preview=true` answers what the file
 * would do, per record type, and writes nothing; then the same file again, with
 * `?changed=keep` or `?changed=replace`, writes the new records and, when asked, replaces
 * the ones here that the file holds changed. The same for the product's JSON export and
 * for a FHIR R4 Bundle (`?person={id}`).
 */
import { tr } from './i18n/translate';
import { z } from 'zod';

export const CHANGED_CHOICES = ['keep', 'replace'] as const;
export type ChangedChoice = (typeof CHANGED_CHOICES)[number];

/** `POST /api/import?person={id}&preview=true&changed=keep` */
export const importQuerySchema = z.object({
  /** The person a FHIR bundle's records go to (the product's own export names its own). */
  person: z
    .string()
    .min(1, { error: () => tr('Person: choose who the records belong to') })
    .optional(),
  /** Only say what the import would do. */
  preview: z
    .enum(['true', 'false'], { error: () => tr('preview must be true or false') })
    .optional()
    .transform((value) => value === 'true'),
  /** What becomes of a record that is here and that the file holds changed. */
  changed: z
    .enum(CHANGED_CHOICES, { error: () => tr('Changed records: choose keep or replace') })
    .default('keep'),
  /** The user's name for the file, for Import History (its kind is told by its content). */
  file: z
    .string()
    .trim()
    .max(255, { error: () => tr('File: at most 255 characters') })
    .optional(),
  /** Import the rows that could be read although some could not (a CSV's). */
  confirm: z
    .enum(['true', 'false'], { error: () => tr('confirm must be true or false') })
    .optional()
    .transform((value) => value === 'true'),
  /** Measurements from and to these days (`YYYY-MM-DD`), read on the user's clock (`tz`). */
  from: z.iso.date({ error: () => tr('From: a date, YYYY-MM-DD') }).optional(),
  to: z.iso.date({ error: () => tr('To: a date, YYYY-MM-DD') }).optional(),
  tz: z
    .string()
    .max(64)
    .refine(
      (zone) => {
        try {
          new Intl.DateTimeFormat('en', { timeZone: zone });
          return true;
        } catch {
          return false;
        }
      },
      { error: () => tr('Time zone: not one this server knows') },
    )
    .optional(),
});

export interface ImportTypeCounts {
  new: number;
  already_here: number;
  changed: number;
}

/** Per record type ('visit', 'medication'…; 'family_member' for the product's own export). */
export type ImportCounts = Record<string, ImportTypeCounts>;

export interface ImportPreview {
  format: 'fhir' | 'kin-health-export';
  counts: ImportCounts;
  totals: ImportTypeCounts;
  /** FHIR resources that would not be brought in, per resource type. */
  skipped: Record<string, number>;
  /** '23 new, 41 already here, 2 changed' */
  summary: string;
}

export function totalsOf(counts: ImportCounts): ImportTypeCounts {
  const totals: ImportTypeCounts = { new: 0, already_here: 0, changed: 0 };
  for (const tally of Object.values(counts)) {
    totals.new += tally.new;
    totals.already_here += tally.already_here;
    totals.changed += tally.changed;
  }
  return totals;
}

/** '23 new, 41 already here, 2 changed' */
export function previewSentence(totals: ImportTypeCounts): string {
  return tr('{new} new, {already} already here, {changed} changed', {
    new: totals.new,
    already: totals.already_here,
    changed: totals.changed,
  });
}

/** The preview of an import: its counts per type, their totals and the sentence that says them. */
export function importPreview(
  format: ImportPreview['format'],
  counts: ImportCounts,
  skipped: ImportPreview['skipped'] = {},
): ImportPreview {
  const totals = totalsOf(counts);
  return { format, counts, totals, skipped, summary: previewSentence(totals) };
}
