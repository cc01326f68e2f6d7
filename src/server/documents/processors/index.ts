/**
 * The one place a document's type decides how it is processed: the derive thread (its copies
 * at upload), the server's thread (the file the text thread reads) and the text thread (its
 * text) each ask `processorFor` for its processor.
 */
import { heicProcessor, imageProcessor } from './image';
import { pdfProcessor } from './pdf';
import type { DocumentProcessor } from './processor';
import { xmlProcessor } from './text';

/** The processor of a file of `mimeType`: any type not named here is read as an image. */
export function processorFor(mimeType: string): DocumentProcessor {
  switch (mimeType) {
    case 'application/pdf':
      return pdfProcessor;
    case 'application/xml':
      return xmlProcessor;
    case 'image/heic':
      return heicProcessor;
    default:
      return imageProcessor;
  }
}
