/**
 * A HEIC photo's metadata (its Exif: GPS position, device; its XMP), removed from the
 * original that is kept for download, the photo itself untouched. A HEIC file is ISOBMFF
 * boxes: its 'meta' box lists the file's items ('iinf'), each with a type ('hvc1' for pixels,
 * 'Exif', or 'mime' with a content type, XMP's application/rdf+xml) and where its bytes are
 * ('iloc'). Each metadata item's bytes are overwritten where they are with empty metadata of
 * the same length (an Exif with no entry, an XMP packet with no property, padded), so no
 * offset in the file moves and the photo still decodes exactly as before.
 */

/** A box of an ISOBMFF file: its type, where it starts, where its content starts and ends. */
export interface IsoBox {
  type: string;
  start: number;
  content: number;
  end: number;
}

const NOT_HEIC = 'Not a HEIC file this server can read';

/** The boxes between `start` and `end` (a file's, or a box's content). */
export function isoBoxes(bytes: Uint8Array, start = 0, end = bytes.byteLength): IsoBox[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const boxes: IsoBox[] = [];
  for (let at = start; at + 8 <= end;) {
    let size = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    let content = at + 8;
    if (size === 1) {
      if (at + 16 > end) throw new Error(NOT_HEIC);
      size = Number(view.getBigUint64(at + 8));
      content = at + 16;
    } else if (size === 0) {
      size = end - at;
    }
    if (size < content - at || at + size > end) throw new Error(NOT_HEIC);
    boxes.push({ type, start: at, content, end: at + size });
    at += size;
  }
  return boxes;
}

/** Where one of an item's extents is in the file. */
export interface ItemExtent {
  offset: number;
  length: number;
}

export interface HeicItem {
  id: number;
  /** 'hvc1', 'Exif', 'mime'… */
  type: string;
  /** A 'mime' item's content type. */
  contentType?: string;
  extents: ItemExtent[];
}

/** Reads an unsigned integer of 0, 4 or 8 bytes (iloc's sizes). */
function uint(view: DataView, at: number, size: number): number {
  if (size === 0) return 0;
  if (size === 4) return view.getUint32(at);
  if (size === 8) return Number(view.getBigUint64(at));
  throw new Error(NOT_HEIC);
}

/** The 'meta' box's children, a full box's content starting after its version and flags. */
export function metaBoxes(bytes: Uint8Array): { meta: IsoBox; children: IsoBox[] } {
  const meta = isoBoxes(bytes).find((box) => box.type === 'meta');
  if (!meta) throw new Error(NOT_HEIC);
  return { meta, children: isoBoxes(bytes, meta.content + 4, meta.end) };
}

/** A NUL-terminated string at `at`, and where it ends. */
function cString(bytes: Uint8Array, at: number, end: number): [string, number] {
  let stop = at;
  while (stop < end && bytes[stop] !== 0) stop += 1;
  return [Buffer.from(bytes.subarray(at, stop)).toString('latin1'), stop + 1];
}

/** The file's items: their ids, types and where their bytes are. */
export function heicItems(bytes: Uint8Array): HeicItem[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { children } = metaBoxes(bytes);
  const items = new Map<number, HeicItem>();
  const itemOf = (id: number) => {
    let item = items.get(id);
    if (!item) {
      item = { id, type: '', extents: [] };
      items.set(id, item);
    }
    return item;
  };

  const iinf = children.find((box) => box.type === 'iinf');
  if (iinf) {
    const version = bytes[iinf.content] ?? 0;
    const first = iinf.content + 4 + (version === 0 ? 2 : 4);
    for (const infe of isoBoxes(bytes, first, iinf.end)) {
      if (infe.type !== 'infe') continue;
      const infeVersion = bytes[infe.content] ?? 0;
      // Versions 0 and 1 (no item type) are of the first HEIF drafts: no metadata items.
      if (infeVersion < 2) continue;
      let at = infe.content + 4;
      const id = infeVersion === 2 ? view.getUint16(at) : view.getUint32(at);
      at += (infeVersion === 2 ? 2 : 4) + 2;
      const item = itemOf(id);
      item.type = String.fromCharCode(...bytes.subarray(at, at + 4));
      at += 4;
      const [, afterName] = cString(bytes, at, infe.end);
      if (item.type === 'mime') item.contentType = cString(bytes, afterName, infe.end)[0];
    }
  }

  const iloc = children.find((box) => box.type === 'iloc');
  const idat = children.find((box) => box.type === 'idat');
  if (iloc) {
    const version = bytes[iloc.content] ?? 0;
    let at = iloc.content + 4;
    const offsetSize = (bytes[at] ?? 0) >> 4;
    const lengthSize = (bytes[at] ?? 0) & 15;
    const baseOffsetSize = (bytes[at + 1] ?? 0) >> 4;
    const indexSize = version === 1 || version === 2 ? (bytes[at + 1] ?? 0) & 15 : 0;
    at += 2;
    const count = version < 2 ? view.getUint16(at) : view.getUint32(at);
    at += version < 2 ? 2 : 4;
    for (let n = 0; n < count; n += 1) {
      const id = version < 2 ? view.getUint16(at) : view.getUint32(at);
      at += version < 2 ? 2 : 4;
      let method = 0;
      if (version === 1 || version === 2) {
        method = view.getUint16(at) & 15;
        at += 2;
      }
      at += 2; // data_reference_index: 0, this file
      const base = uint(view, at, baseOffsetSize);
      at += baseOffsetSize;
      const extentCount = view.getUint16(at);
      at += 2;
      const item = itemOf(id);
      for (let e = 0; e < extentCount; e += 1) {
        at += indexSize;
        const offset = uint(view, at, offsetSize);
        at += offsetSize;
        const length = uint(view, at, lengthSize);
        at += lengthSize;
        // Method 0: offsets in the file; 1: in the 'meta' box's 'idat'; 2: in another item
        // (not used by cameras; such an item's bytes are counted as nowhere).
        const origin = method === 0 ? 0 : method === 1 && idat ? idat.content : undefined;
        if (origin === undefined) continue;
        const start = origin + base + offset;
        const stop =
          length === 0 ? (method === 1 && idat ? idat.end : bytes.byteLength) : start + length;
        if (stop > bytes.byteLength) throw new Error(NOT_HEIC);
        item.extents.push({ offset: start, length: stop - start });
      }
    }
  }
  return [...items.values()];
}

/** Whether an item is metadata: Exif, or XMP (a 'mime' item of application/rdf+xml). */
export function isMetadataItem(item: HeicItem): boolean {
  return (
    item.type === 'Exif' || (item.type === 'mime' && /rdf\+xml|xmp/i.test(item.contentType ?? ''))
  );
}

/** An Exif item with no entry: the TIFF header's offset (0), then a TIFF with an empty IFD. */
const EMPTY_EXIF = Uint8Array.from([0, 0, 0, 0, 0x4d, 0x4d, 0, 0x2a, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0]);
const EMPTY_XMP = Buffer.from(
  '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>' +
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"/><?xpacket end="w"?>',
  'latin1',
);

/**
 * Removes the photo's metadata in place (the same length, no offset moved): each Exif item
 * becomes an Exif with no entry and each XMP item a packet with no property, the rest of
 * their bytes zeros (Exif) or spaces (XMP's padding). Returns how many items it emptied.
 */
export function stripHeicMetadata(bytes: Uint8Array): number {
  let emptied = 0;
  for (const item of heicItems(bytes).filter(isMetadataItem)) {
    const exif = item.type === 'Exif';
    const empty = exif ? EMPTY_EXIF : EMPTY_XMP;
    const total = item.extents.reduce((sum, extent) => sum + extent.length, 0);
    // Too short to hold an empty one: nothing but padding.
    let written = total >= empty.byteLength ? 0 : empty.byteLength;
    for (const extent of item.extents) {
      const target = bytes.subarray(extent.offset, extent.offset + extent.length);
      target.fill(exif ? 0 : 0x20);
      if (written < empty.byteLength) {
        const part = empty.subarray(written, written + target.byteLength);
        target.set(part);
        written += part.byteLength;
      }
    }
    emptied += 1;
  }
  return emptied;
}
