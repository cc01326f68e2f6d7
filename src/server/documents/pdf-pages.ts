/**
 * A PDF's pages drawn by pdf.js on a canvas: the first page for a document's thumbnail (on
 * the documents thread), a scanned page at 300 dpi for OCR (on the document-text thread).
 *
 * Left to itself in Node, pdf.js decodes every picture of the page at full size in its own
 * JavaScript and draws it whole before scaling it down: a 300 dpi scan's page (8.4
 * megapixels) took about 130 MB and most of a second for a thumbnail. In a browser it would
 * hand a JPEG to the platform (`ImageDecoder`) and draw on `OffscreenCanvas`es; this module
 * gives it that platform, as pdf.js itself gives Node its `ImageData`, `DOMMatrix` and
 * `Path2D`:
 *
 * - `ImageDecoder` for JPEG (a scanner's pictures) is sharp, which decodes a JPEG at 1/2, 1/4
 *   or 1/8 of its size as it loads: the picture comes out at most as large as the page being
 *   drawn (its longest side), which a picture filling the page needs and no more. It takes
 *   PNG too: pdf.js, patched (patches/pdfjs-dist), hands over an RGB picture stored as a PNG
 *   stores it (deflated rows with PNG's filters, which is how a PDF maker embeds a PNG) as a
 *   PNG, which sharp decodes a few rows at a time as it shrinks it. pdf.js itself inflated
 *   it whole, unfiltered it into a copy and made it RGBA: about 13 bytes a pixel;
 * - `OffscreenCanvas` draws on canvases of pdf.js's own canvas module (pdfCanvas), and keeps
 *   a picture pdf.js decoded itself at the size the page needs (PageCanvas);
 * - pdf.js's two halves (the one reading the file, the one drawing) talk through PagePort, a
 *   port within this thread that copies each message as a `postMessage` does (as pdf.js's
 *   own in-thread port does), except the pictures it transfers, which it hands over as a
 *   browser hands over a transferred `ImageBitmap` (a canvas cannot be copied).
 *
 * A JPEG pdf.js will not hand over (a CMYK one, or one whose colours the PDF changes) it
 * decodes itself, as before. pdf.js reads the file a range at a time, only what the pages
 * drawn need. Why this and not another renderer: docs/decisions/0042.
 *
 * What a drawing may take is bounded, whatever the file says (drawing-limits.ts): a picture
 * is drawn only up to MAX_PICTURE_PIXELS, a page only up to MAX_PAGE_PIXELS.
 */
import { open, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type * as Canvas from '@napi-rs/canvas';
import type * as PdfjsModule from 'pdfjs-dist/legacy/build/pdf.mjs';
import sharp from './image-library';
import { collectGarbage } from '../runtime/collect-garbage';
import { MAX_PAGE_PIXELS, MAX_PICTURE_PIXELS } from './drawing-limits';

/**
 * The longest side a first page is drawn at, in pixels: twice a thumbnail's
 * (processors/derived-copies.ts shrinks it to one, sharply).
 */
const PAGE_SIDE = 640;

/**
 * The most a picture is decoded at a side: the longest side of the page being drawn (a
 * thread draws one page at a time), set by drawPage.
 */
let pictureSide = PAGE_SIDE;

/**
 * The canvas module pdf.js itself draws images with. pdf.js pins its own @napi-rs/canvas
 * (0.1.x, under pdfjs-dist/node_modules); drawing its canvases onto one of another copy (the
 * 1.x at the top of node_modules) mixes two builds of Skia in one process, which corrupted
 * the heap and crashed the process on the first PDF with an image in it. So the page is
 * drawn on a canvas of pdf.js's own copy, found from pdf.js's folder as pdf.js finds it.
 */
function pdfCanvas(): typeof Canvas {
  const fromHere = createRequire(import.meta.url);
  const fromPdfjs = createRequire(fromHere.resolve('pdfjs-dist/package.json'));
  return fromPdfjs('@napi-rs/canvas') as typeof Canvas;
}

/**
 * What pdf.js's reading half holds as an ImageBitmap: a picture's size in pixels, and the
 * canvas it is drawn on once it is (sharp resizes pictures off the thread's turn).
 */
class Picture {
  constructor(
    readonly width: number,
    readonly height: number,
    readonly drawn: Promise<Canvas.Canvas>,
  ) {}
  /** An ImageBitmap's: pdf.js closes the pictures it is done with. */
  close() {}
}

type Listener = (this: PagePort, event: { data: unknown }) => void;

/** Whether a value is a plain object or array a message is made of. */
const isPlain = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;

/**
 * The port between pdf.js's halves in this thread. A message is copied as it is posted
 * (structuredClone, its transfer list honoured) and delivered after the current task, in the
 * order posted, as pdf.js's own LoopbackPort does. The pictures in it are handed over as a
 * browser transfers an ImageBitmap: as the canvas each is drawn on, once it is, and with its
 * own size (pdf.js's drawing half scales a picture by the size it is told; a browser's
 * bitmap has the size pdf.js decoded it at, these are smaller).
 */
class PagePort {
  readonly #listeners = new Set<Listener>();
  #delivered: Promise<void> = Promise.resolve();

  postMessage(message: unknown, transfer?: Transferable[]) {
    // A message with pictures in it (a picture's, or an operator list with inline pictures)
    // is copied around them, its buffers copied rather than transferred.
    const pictures = transfer?.some((value) => value instanceof Picture) ?? false;
    const copy = pictures
      ? this.#copyAround(message)
      : structuredClone(message, transfer ? { transfer } : undefined);
    // A listener that throws fails its own delivery, not the next message's.
    this.#delivered = this.#delivered
      .then(async () => {
        const data = pictures ? await this.#withCanvases(copy) : copy;
        for (const listener of this.#listeners) listener.call(this, { data });
      })
      .catch(() => {});
  }

  /** A copy of a message with pictures in it, the pictures themselves kept. */
  #copyAround(value: unknown): unknown {
    if (value instanceof Picture) return value;
    if (Array.isArray(value)) return value.map((item) => this.#copyAround(item));
    if (isPlain(value)) {
      const copy = Object.fromEntries(
        Object.entries(value).map(([key, item]) => [key, this.#copyAround(item)]),
      );
      if (copy.bitmap instanceof Picture) {
        copy.width = copy.bitmap.width;
        copy.height = copy.bitmap.height;
      }
      return copy;
    }
    return structuredClone(value);
  }

  /** The copy with each picture replaced by its canvas, once drawn. */
  async #withCanvases(value: unknown): Promise<unknown> {
    if (value instanceof Picture) {
      return Object.assign(await value.drawn, { close: () => {} });
    }
    if (Array.isArray(value)) return Promise.all(value.map((item) => this.#withCanvases(item)));
    if (isPlain(value)) {
      for (const [key, item] of Object.entries(value)) value[key] = await this.#withCanvases(item);
    }
    return value;
  }

  addEventListener(_type: 'message', listener: Listener) {
    this.#listeners.add(listener);
  }

  removeEventListener(_type: 'message', listener: Listener) {
    this.#listeners.delete(listener);
  }

  terminate() {
    this.#listeners.clear();
  }
}

type Pdfjs = typeof PdfjsModule;

let platform: Promise<{ pdfjs: Pdfjs; worker: InstanceType<Pdfjs['PDFWorker']> }> | undefined;

/** pdf.js with the platform above, made once per thread. */
function pdfjsWithPlatform() {
  platform ??= (async () => {
    const canvas = pdfCanvas();
    /** Pixels (RGBA) on a canvas of their own size. */
    const drawnAsIs = (image: Canvas.ImageData) => {
      const made = canvas.createCanvas(image.width, image.height);
      made.getContext('2d').putImageData(image, 0, 0);
      return made;
    };
    /** Pixels (RGBA, as sharp gives them) on a canvas. */
    const drawnFrom = (pixels: Buffer, width: number, height: number) =>
      drawnAsIs(
        new canvas.ImageData(
          new Uint8ClampedArray(pixels.buffer, pixels.byteOffset, pixels.byteLength),
          width,
          height,
        ),
      );
    /**
     * A browser's OffscreenCanvas, as much of it as pdf.js uses. pdf.js puts a picture it
     * decoded itself (a PNG's, at full size) on one and hands it over: one larger than a
     * page's drawing is resized by sharp to the page's size from pdf.js's own pixels,
     * never copied whole onto a canvas. Whatever else pdf.js does with one is done on a
     * canvas of pdf.js's module at its full size, made when it is first used.
     */
    class PageCanvas {
      #width: number;
      #height: number;
      #full: Canvas.Canvas | undefined;
      #large: Canvas.ImageData | undefined;
      constructor(width: number, height: number) {
        this.#width = width;
        this.#height = height;
      }
      #canvas(): Canvas.Canvas {
        this.#full ??= canvas.createCanvas(this.#width, this.#height);
        return this.#full;
      }
      get width() {
        return this.#full?.width ?? this.#width;
      }
      set width(width: number) {
        this.#canvas().width = width;
      }
      get height() {
        return this.#full?.height ?? this.#height;
      }
      set height(height: number) {
        this.#canvas().height = height;
      }
      getContext(_type: '2d') {
        const put = (image: Canvas.ImageData, x: number, y: number, ...dirty: number[]) => {
          const whole = !this.#full && x === 0 && y === 0 && dirty.length === 0;
          const size = image.width === this.#width && image.height === this.#height;
          if (whole && size && Math.max(image.width, image.height) > pictureSide) {
            this.#large = image;
            return;
          }
          this.#canvas()
            .getContext('2d')
            .putImageData(image, x, y, ...(dirty as []));
        };
        return new Proxy({} as Canvas.SKRSContext2D, {
          get: (_target, key) => {
            if (key === 'createImageData') {
              return (width: number, height: number) => new canvas.ImageData(width, height);
            }
            if (key === 'putImageData') return put;
            const context = this.#canvas().getContext('2d');
            const value: unknown = Reflect.get(context, key);
            return typeof value === 'function' ? value.bind(context) : value;
          },
          set: (_target, key, value) => Reflect.set(this.#canvas().getContext('2d'), key, value),
        });
      }
      transferToImageBitmap(): Picture {
        const large = this.#large;
        if (!large) return new Picture(this.width, this.height, Promise.resolve(this.#canvas()));
        const width = Math.min(large.width, pictureSide);
        const height = Math.min(large.height, pictureSide);
        const { data } = large;
        const resized = sharp(Buffer.from(data.buffer, data.byteOffset, data.byteLength), {
          raw: { width: large.width, height: large.height, channels: 4 },
        })
          .resize(width, height, { fit: 'fill' })
          .raw()
          .toBuffer()
          .then((pixels) => drawnFrom(pixels, width, height))
          // Drawn whole, as pdf.js would have, if sharp could not; left out if that fails too
          // (a picture whose promise failed would hold the page's drawing for good).
          .catch(() => drawnAsIs(large))
          .catch(() => canvas.createCanvas(1, 1));
        return new Picture(width, height, resized);
      }
    }
    /** A browser's ImageDecoder, for JPEG and PNG, by sharp. */
    class PictureDecoder {
      static isTypeSupported(type: string): Promise<boolean> {
        return Promise.resolve(type === 'image/jpeg' || type === 'image/png');
      }
      readonly #data: Uint8Array;
      constructor(init: { data: Uint8Array; type: string }) {
        this.#data = init.data;
      }
      async decode(): Promise<{ image: Picture }> {
        // Each side at most the page's, apart: the page draws a picture in the place and
        // shape its drawing gives, whatever the proportions of the pixels handed over.
        const { width = 0, height = 0 } = await sharp(this.#data).metadata();
        const { data, info } = await sharp(this.#data)
          .resize(Math.min(width, pictureSide), Math.min(height, pictureSide), {
            fit: 'fill',
            fastShrinkOnLoad: true,
          })
          .toColourspace('srgb')
          .ensureAlpha()
          .raw()
          .toBuffer({ resolveWithObject: true });
        const drawn = drawnFrom(data, info.width, info.height);
        return { image: new Picture(info.width, info.height, Promise.resolve(drawn)) };
      }
      close() {}
    }
    const platformGlobals = globalThis as Record<string, unknown>;
    platformGlobals.OffscreenCanvas = PageCanvas;
    platformGlobals.ImageDecoder = PictureDecoder;
    // Both halves look for the platform as they load, so it is there first.
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const { WorkerMessageHandler } = (await import(
      // @ts-expect-error -- pdf.js ships no declaration for its worker's module
      'pdfjs-dist/legacy/build/pdf.worker.mjs'
    )) as { WorkerMessageHandler: { initializeFromPort(port: PagePort): void } };
    const port = new PagePort();
    WorkerMessageHandler.initializeFromPort(port);
    // Typed by pdf.js as a browser's Worker; any object with a Worker's port methods does.
    const worker = new pdfjs.PDFWorker({ port: port as never, verbosity: 0 });
    return { pdfjs, worker };
  })();
  return platform;
}

/** Loads pdf.js and its platform now (a thread's start), rather than with the first PDF. */
export async function loadPdfjs(): Promise<void> {
  await pdfjsWithPlatform();
}

type PdfDocument = Awaited<ReturnType<Pdfjs['getDocument']>['promise']>;
export type PdfPage = Awaited<ReturnType<PdfDocument['getPage']>>;

/**
 * The PDF in `file`, opened by pdf.js with the platform above, read a range at a time.
 * The caller destroys it when done.
 *
 * Each range pdf.js asks for is read here in one piece and handed over, and collected once
 * pdf.js has copied it into its own array of the file. Opened by its URL, pdf.js read a range
 * as a file stream's 64 kB pieces and then joined them: the range was in memory three times,
 * two of them garbage that V8 collected only when it chose (a 9.7 MB picture's range, about
 * 19 MB more at the moment it was drawn).
 */
export async function openPdf(file: string): Promise<PdfDocument> {
  const { pdfjs, worker } = await pdfjsWithPlatform();
  const { size } = await stat(file);
  const ranges = new pdfjs.PDFDataRangeTransport(size, null);
  const loading = pdfjs.getDocument({
    range: ranges,
    worker,
    disableStream: true,
    disableAutoFetch: true,
    // No fonts from the system's; the PDF's own drawn on the canvas.
    disableFontFace: true,
    useSystemFonts: false,
    isOffscreenCanvasSupported: true,
    isImageDecoderSupported: true,
    // Pictures are drawn as they are decoded, never cut down first by pdf.js. The largest
    // number pdf.js takes (it shifts it as a 32-bit integer: 2 ** 31 became negative, and
    // pdf.js then probed the largest canvas it could make with a canvas of each large
    // picture's size, 144 MB for a 36-megapixel one, before decoding it).
    canvasMaxAreaInBytes: 2 ** 31 - 1,
    maxImageSize: MAX_PICTURE_PIXELS,
    verbosity: 0,
  });
  ranges.requestDataRange = (begin: number, end: number) => {
    readRange(file, begin, end).then(
      (bytes) => {
        ranges.onDataRange(begin, bytes);
        // pdf.js copies the range as the message reaches its reading half, within this
        // turn; the piece read is garbage once the next turn starts.
        setImmediate(() => collectGarbage('minor'));
      },
      // A range that cannot be read ends the document: what waits on it fails at once.
      () => void loading.destroy(),
    );
  };
  return loading.promise;
}

/** Bytes `begin` to `end` of a file, read in one piece. */
async function readRange(file: string, begin: number, end: number): Promise<Uint8Array> {
  const handle = await open(file, 'r');
  try {
    const bytes = new Uint8Array(end - begin);
    let at = 0;
    while (at < bytes.length) {
      const { bytesRead } = await handle.read(bytes, at, bytes.length - at, begin + at);
      if (bytesRead === 0) throw new Error('The file ended before the range pdf.js asked for');
      at += bytesRead;
    }
    return bytes;
  } finally {
    await handle.close();
  }
}

/**
 * A page drawn at `scale` (1: 72 pixels an inch) on white, on a canvas of pdf.js's module;
 * a page that would take more than MAX_PAGE_PIXELS at that scale is drawn at the scale that
 * fits it (the canvas's width says which).
 */
export async function drawPage(page: PdfPage, scale: number): Promise<Canvas.Canvas> {
  const { createCanvas } = pdfCanvas();
  const natural = page.getViewport({ scale: 1 });
  const fits = Math.sqrt(MAX_PAGE_PIXELS / (natural.width * natural.height));
  const viewport = page.getViewport({ scale: Math.min(scale, fits) });
  const [width, height] = [Math.ceil(viewport.width), Math.ceil(viewport.height)];
  pictureSide = Math.max(width, height);
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  await page.render({
    canvas: canvas as unknown as HTMLCanvasElement,
    canvasContext: context as unknown as CanvasRenderingContext2D,
    viewport,
  }).promise;
  return canvas;
}

/** The first page of the PDF in `file`, drawn with its longest side PAGE_SIDE pixels, as a PNG. */
export async function pdfFirstPage(file: string): Promise<Buffer> {
  const document = await openPdf(file);
  try {
    const page = await document.getPage(1);
    const { width, height } = page.getViewport({ scale: 1 });
    const canvas = await drawPage(page, PAGE_SIDE / Math.max(width, height));
    return await canvas.encode('png');
  } finally {
    await document.destroy();
  }
}
