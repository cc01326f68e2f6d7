/**
 * The user's chosen dates (ReadOptions `from` and `to`, inclusive days): a measurement is in
 * them by its day on the user's clock, as the user chose them.
 */
import type { ReadOptions } from '../file-readers';
import { key } from '../../../shared/i18n/translate';

export const OUTSIDE_DATES = key('Measurements outside the chosen dates');

/** Whether a moment on the user's clock (`2024-03-14T08:30`, or a day) is in the chosen dates. */
export function inDateRange(local: string, { from, to }: ReadOptions): boolean {
  const day = local.slice(0, 10);
  return (!from || day >= from) && (!to || day <= to);
}
