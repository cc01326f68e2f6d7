/**
 * Summary PDFs made on a thread of their own (summary-pdf-worker.ts), so that a busy summary's
 * second of layout never holds up anyone else's request. The thread starts with the first
 * summary asked for and makes them one at a time; it then stays, as pdfmake stayed loaded
 * when summaries were made on the server's own thread: starting it and loading pdfmake and
 * the fonts again would add about half a second to the next summary. With nothing in hand it
 * keeps no process alive. A thread that fails is replaced by the next summary asked for, and
 * the summaries it had in hand fail with it. A summary still being laid out after
 * SUMMARY_TIME_LIMIT_MS fails and its thread is ended: a summary's rows are bounded
 * (ROWS_PER_SECTION, under 3 s on a server's core), so only a fault would take that long,
 * and it would otherwise hold every later summary behind it.
 */
import type { PersonSummary } from '../../shared/person-summary';
import type { LanguageCode } from '../../shared/i18n/languages';
import type { RenderSummaryOptions } from './render-summary-pdf';
import type { SummaryPdfAnswer, SummaryPdfJob } from './summary-pdf-worker';
import { jobThread } from '../runtime/job-thread';
import { languageInForce } from '../i18n/server-language';

export interface SummaryPdfThread {
  /** The PDF's bytes, handed over by the thread: the answer's body as they are. */
  /** In `options.language`, else the language in force (the request's or the job's). */
  render(
    summary: PersonSummary,
    options: RenderSummaryOptions & { language?: LanguageCode },
  ): Promise<Uint8Array<ArrayBuffer>>;
  /** Ends the thread now (it starts again if another summary is asked for). */
  close(): Promise<void>;
  /** Whether the thread is there now. */
  readonly running: boolean;
}

/** How long one summary may take on its thread, counted from when the thread is handed it. */
export const SUMMARY_TIME_LIMIT_MS = 60_000;

export function summaryPdfThread({
  timeLimitMs = SUMMARY_TIME_LIMIT_MS,
}: { timeLimitMs?: number } = {}): SummaryPdfThread {
  const thread = jobThread<Omit<SummaryPdfJob, 'id'>, SummaryPdfAnswer, Uint8Array<ArrayBuffer>>({
    entry: 'summary-pdf-worker',
    from: import.meta.url,
    name: 'summary',
    timeLimitMs,
    result(answer) {
      if ('pdf' in answer) return { ok: answer.pdf };
      const error = answer.error.name === 'RangeError' ? new RangeError() : new Error();
      error.message = answer.error.message;
      return { error };
    },
  });
  return {
    render: (summary, options) =>
      thread.run({
        summary,
        timeZone: options.timeZone,
        language: options.language ?? languageInForce(),
      }),
    close: thread.close,
    get running() {
      return thread.running;
    },
  };
}

let shared: SummaryPdfThread | undefined;

/** The process's one summary thread, for every app in it. */
export function sharedSummaryPdfThread(): SummaryPdfThread {
  shared ??= summaryPdfThread();
  return shared;
}
