/**
 * The names documents' files go by when they leave the product (a download, a document of a
 * share link saved from the viewer): without the characters that change how a name reads
 * without being seen (U+202E turns 'invoice‮fdp.exe' into what looks like
 * 'invoiceexe.pdf'; other bidi controls, zero-width and control characters), and ending with
 * an extension of the type the file's bytes were found to be at upload, whatever it was
 * named: a PDF uploaded as report.html downloads as report.html.pdf and opens as a PDF.
 */

/** Control, format (bidi controls, zero-width), line and paragraph separator characters. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** A name without invisible characters (see above), trimmed; 'document' when none is left. */
export function cleanFileName(name: string): string {
  return name.replace(INVISIBLE, '').trim() || 'document';
}

/** The extensions of each type a document's file may be, the usual one first. */
const EXTENSIONS: Readonly<Record<string, readonly string[]>> = {
  'application/pdf': ['pdf'],
  'image/jpeg': ['jpg', 'jpeg', 'jpe', 'jfif'],
  'image/png': ['png'],
  'image/webp': ['webp'],
  'image/heic': ['heic', 'heif'],
};

/**
 * A file's name for its download: cleaned, and ending with an extension of `mimeType`, the
 * type its bytes are (one is added when it does not: nothing of the name is taken away).
 */
export function downloadName(name: string, mimeType: string): string {
  const cleaned = cleanFileName(name);
  const extensions = EXTENSIONS[mimeType];
  if (!extensions) return cleaned;
  const extension = /\.([^.]+)$/.exec(cleaned)?.[1]?.toLowerCase();
  return extension !== undefined && extensions.includes(extension)
    ? cleaned
    : `${cleaned}.${extensions[0]}`;
}
