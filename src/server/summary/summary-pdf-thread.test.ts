/**
 * Summary PDFs on their own thread: the server's own thread keeps turning while a busy summary
 * is laid out, the PDF is the one the renderer makes, and a thread that ends or fails leaves
 * the next summary unharmed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { longestStall } from '../test/event-loop-stall';
import { renderSummaryPdf } from './render-summary-pdf';
import { busySummary, fullSummary } from './summary-factories';
import { summaryPdfThread, type SummaryPdfThread } from './summary-pdf-thread';
import { JobTimeLimitError } from '../runtime/job-thread';

const threads: SummaryPdfThread[] = [];
function newThread(options?: Parameters<typeof summaryPdfThread>[0]) {
  const thread = summaryPdfThread(options);
  threads.push(thread);
  return thread;
}
afterEach(async () => {
  await Promise.all(threads.splice(0).map((thread) => thread.close()));
});

/** What pdfmake writes that differs from one run to the next: the dates and the file id. */
const stable = (pdf: Uint8Array) =>
  Buffer.from(pdf)
    .toString('latin1')
    .replace(/\(D:\d{14}Z\)/g, '')
    .replace(/\/ID \[[^\]]*\]/g, '');

describe('the summary thread', () => {
  it('makes a busy summary while this thread keeps answering', async () => {
    const thread = newThread();
    const summary = busySummary();
    await thread.render(fullSummary(), { timeZone: 'Europe/Oslo' }); // started and warm
    const here = await longestStall(() => renderSummaryPdf(summary, { timeZone: 'Europe/Oslo' }));
    const there = await longestStall(() => thread.render(summary, { timeZone: 'Europe/Oslo' }));
    // Laid out here, the loop stands still for most of the layout; there, it keeps turning.
    expect(here.stallMs).toBeGreaterThan(150);
    expect(there.stallMs).toBeLessThan(here.stallMs / 3);
    expect(stable(there.result)).toBe(stable(here.result));
  });

  it('passes on a refusal as the renderer made it', async () => {
    const thread = newThread();
    const refused = thread.render(fullSummary(), { timeZone: 'Mars/Olympus_Mons' });
    await expect(refused).rejects.toBeInstanceOf(RangeError);
    await expect(thread.render(fullSummary(), { timeZone: 'Mars/Olympus_Mons' })).rejects.toThrow(
      /Mars\/Olympus_Mons/,
    );
    // The thread is still there for the next one.
    expect(
      Buffer.from(await thread.render(fullSummary(), { timeZone: 'UTC' }))
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });

  it('fails the summaries in hand when the thread ends, and starts again for the next', async () => {
    const thread = newThread();
    const inHand = thread.render(busySummary(), { timeZone: 'UTC' });
    const refused = expect(inHand).rejects.toThrow(/summary thread was closed/);
    await thread.close();
    await refused;
    expect(thread.running).toBe(false);
    const next = await thread.render(fullSummary(), { timeZone: 'UTC' });
    expect(Buffer.from(next).subarray(0, 5).toString()).toBe('%PDF-');
    expect(thread.running).toBe(true);
  });

  it('fails a summary past its time, and ends its thread', async () => {
    const thread = newThread({ timeLimitMs: 50 });
    await expect(thread.render(busySummary(), { timeZone: 'UTC' })).rejects.toBeInstanceOf(
      JobTimeLimitError,
    );
    expect(thread.running).toBe(false);
  });
});
