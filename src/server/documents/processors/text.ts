/**
 * A text document: a C-CDA (XML) an import keeps as it came (never taken from an upload).
 * At upload it is shown as its narrative (sanitised HTML, imports/ccda/ccda-narrative.ts),
 * with no thumbnail; its text is its markup taken away, as one page.
 */
import { readFile } from 'node:fs/promises';
import type { DocumentProcessor, DocumentTextJob, DocumentTextRead } from './processor';

/**
 * A kept C-CDA's text: its markup taken away, never parsed (it is a file from outside: no
 * entity or document type of it is ever read). Its narrative is what search finds.
 */
async function xmlText(job: DocumentTextJob): Promise<DocumentTextRead> {
  const text = (await readFile(job.file, 'utf8'))
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(
      /&(lt|gt|amp|quot|apos);/g,
      (_, name: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" })[name] ?? ' ',
    )
    .replace(/[ \t]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim();
  return { text, pages: 1, pagesRead: 1 };
}

export const xmlProcessor: DocumentProcessor = {
  async derive(job) {
    const { ccdaNarrativePage } = await import('../../imports/ccda/ccda-narrative');
    const text = await readFile(job.file, 'utf8');
    return { display: Buffer.from(ccdaNarrativePage(text)) };
  },
  // The text thread reads the file as it is kept.
  textReady: (document) => Promise.resolve(document),
  text: xmlText,
};
