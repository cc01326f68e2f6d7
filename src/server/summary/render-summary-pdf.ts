/** A person's health summary as a PDF, ready to download or attach. */
import type { PersonSummary } from '../../shared/person-summary';
import { checkTimeZone } from './summary-dates';
import { buildSummaryDocument } from './summary-document';
import { summaryPdfmake } from './summary-pdfmake';

export interface RenderSummaryOptions {
  /** The IANA time zone visits and the generated date are shown in ('Europe/Oslo'). */
  timeZone: string;
}

/** Renders the summary; rejects with a RangeError for a time zone that does not exist. */
export async function renderSummaryPdf(
  summary: PersonSummary,
  options: RenderSummaryOptions,
): Promise<Buffer> {
  checkTimeZone(options.timeZone);
  const pdfmake = summaryPdfmake();
  return pdfmake.createPdf(buildSummaryDocument(summary, options)).getBuffer();
}
