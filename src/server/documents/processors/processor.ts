/**
 * What every kind of document file answers (pdf.ts, image.ts, text.ts; index.ts
 * `processorFor` picks one by the file's type): the copies made of it at upload, on the
 * derive thread (the file kept, a display copy, a thumbnail), the file the text thread reads,
 * made on the server's thread, and its text and page count, on the text thread.
 *
 * They stay two jobs on two threads (docs/decisions/0069): the thumbnail is made at upload,
 * which answers with it; the text later, in the background. So a processor loads each
 * library inside the method that uses it, and a thread loads only the libraries its own
 * methods need: OCR (tesseract.js) is the text thread's, handed to `text` by it.
 */
import type { DocumentMimeType } from '../../../shared/documents';

export interface DeriveJob {
  /** Whose upload it is: each account's uploads are prepared in turn with others'. */
  owner?: string;
  /** The uploaded file, as received (a temporary file of the store's). */
  file: string;
  mimeType: DocumentMimeType;
  /** Where to write the file kept in place of the upload (a temporary file of the store's). */
  cleanedFile: string;
  /**
   * The file is one this product stored before (an archive's, its hash checked): an image
   * with no metadata left is kept byte for byte, so that it keeps its hash.
   */
  keepIfClean?: boolean;
}

/** A file written: its SHA-256 and its size. */
export interface WrittenFile {
  sha256: string;
  size: number;
}

export interface Derived {
  /** The job's cleanedFile is written, to keep in place of the upload (a photo without its
   * metadata); none: keep the upload. */
  cleaned?: WrittenFile;
  /** A JPEG to show in place of a file browsers cannot show (HEIC). */
  display?: Uint8Array;
  /** The thumbnail (WebP); none when the file could not be drawn. */
  thumbnail?: Uint8Array;
  /** Why there is no thumbnail of a file that is kept all the same (a PDF pdf.js could not draw). */
  undrawn?: string;
}

export interface DocumentTextJob {
  id: number;
  /** The document's file (a copy of it the server's thread made, and removes). */
  file: string;
  mimeType: string;
  /** The folder holding `{lang}.traineddata.gz` of every language asked for. */
  langPath: string;
  cachePath: string;
  languages: string[];
  /** The most pages read, however they are read. */
  pageLimit: number;
  /** The most pages read by OCR (each drawn at 300 dpi and read: seconds a page). */
  ocrPageLimit: number;
  /** How long (CPU time) the document may be read: no page is begun after it. */
  timeLimitMs: number;
  /** OCR's engine ended between its uses: `Ocr.release` (memory.ts `releaseOcr`). */
  releaseOcr?: boolean;
}

/** A document's text, from its first `pagesRead` of its `pages` pages. */
export interface DocumentTextRead {
  text: string;
  pages: number;
  pagesRead: number;
}

/** A file on disk and its type. */
export interface TypedFile {
  file: string;
  mimeType: string;
}

/** OCR: the text thread's tesseract.js worker, handed to a processor's `text`. */
export interface Ocr {
  /** An image's text: a PNG or image file. */
  read(image: string): Promise<string>;
  /**
   * Gives its memory back before pages are drawn, where the memory budget says so
   * (memory.ts `releaseOcr`): the engine is ended, and the next `read` starts another.
   * Its WebAssembly memory, grown by the pages read, would otherwise sit beside the drawing.
   */
  release(): Promise<void>;
}

export interface DocumentProcessor {
  /** At upload, on the derive thread: the file kept, the display copy and the thumbnail. */
  derive(job: DeriveJob): Promise<Derived>;
  /**
   * On the server's thread, before the text thread reads it: the file it reads (the
   * document's own, or one prepared from it in `prepared`).
   */
  textReady(document: TypedFile, prepared: string): Promise<TypedFile>;
  /** On the text thread: the text, page by page where there are pages, and the page count. */
  text(job: DocumentTextJob, ocr: Ocr): Promise<DocumentTextRead>;
}
