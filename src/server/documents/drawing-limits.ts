/**
 * What drawing a document for its thumbnail or its text may take, whatever the file states
 * (pdf-pages.ts applies both limits; processors/image.ts reads an image within the second).
 * A PDF is mostly compressed and the sizes it states are its own: a 420 kB file whose one
 * picture said 12,000 × 12,000 pixels (zeros, deflated) took 1.9 GB to draw, and a 1 kB one
 * whose page was 5,000 points wide 2.1 GB to draw at 300 dpi.
 */

/**
 * The most pixels a picture on a page may have to be drawn: a page scanned at 600 dpi
 * (Letter 33.7, A4 34.8 megapixels) or a phone's 24-megapixel photo is drawn; a larger one
 * is left out of the drawing (pdf.js's `maxImageSize`), the rest of the page drawn. A picture
 * pdf.js decodes itself (a PNG's, a CMYK JPEG's) takes 10 to 13 bytes a pixel while it is:
 * one at this limit, about 420 MB.
 */
export const MAX_PICTURE_PIXELS = 40_000_000;

/**
 * The most pixels a page is drawn with: an A3 page at 300 dpi (17.4 megapixels) fits; a
 * larger page (a poster, a plan) is drawn at the resolution that fits, its canvas 80 MB at
 * most.
 */
export const MAX_PAGE_PIXELS = 20_000_000;
