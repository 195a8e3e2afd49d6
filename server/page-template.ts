import { crc32 } from "node:zlib";
import {
  crc32Combine,
  crc32Shift,
  deflatePiece,
  FINAL_BLOCK,
  GZIP_HEADER,
  gzipTrailer,
  storedBlock,
} from "~/lib/gzip-pieces.server";

/**
 * A cached page whose only per-response difference is its CSP nonce, kept ready to send.
 *
 * Plain: the text between the nonce slots is kept as bytes, so a response is a copy of those bytes
 * with the nonce between them (no string replacement and UTF-8 encoding of the whole page per hit).
 *
 * Gzipped: compressing the whole ~80 KB document on every hit was most of a hit's cost (the inline
 * stylesheet made pages twice as large). Instead, the text between the nonce slots is compressed
 * once, when the page is cached, as raw deflate ending in a full flush: byte-aligned, with no
 * back-references into what follows. Such pieces can be laid end to end, so a response is the gzip
 * header, the stored pieces with the nonce (as a stored block: its bytes as they are) between them, an
 * empty final block, and the trailer (CRC-32 and length of the whole text, the CRC combined from the
 * pieces' own, decision 098). One valid gzip member: any browser inflates it as usual.
 */
export interface PageTemplate {
  /** The text between the slots, as bytes. */
  readonly parts: readonly Buffer[];
  /** Each part as raw deflate ending in a full flush. */
  readonly deflated: readonly Buffer[];
  /** Each part's CRC-32, and the operator that moves a CRC past the part's length (see `crc32Combine`). */
  readonly crcs: readonly number[];
  readonly shifts: readonly Uint32Array[];
  /** The whole text's length in bytes without the slots' values. */
  readonly partsLength: number;
}

/** Where the renderer put a value in a page: the offsets (UTF-16, ascending) and the value's length. */
export interface PageSlots {
  readonly offsets: readonly number[];
  readonly length: number;
}

/**
 * The slots a unique marker occupies in a text. The page cache passes the response's own nonce, 128
 * random bits nobody else has seen, so every place it occurs is one the renderer put it: text a visitor
 * or the owner wrote cannot contain it (decision 108).
 */
export function slotsOf(text: string, marker: string): PageSlots {
  const offsets: number[] = [];
  if (marker)
    for (let at = text.indexOf(marker); at !== -1; at = text.indexOf(marker, at + marker.length)) offsets.push(at);
  return { offsets, length: marker.length };
}

/**
 * Cuts the text out at the slots, and only there (the text between them is kept as it is, whatever it
 * holds), and compresses the pieces, once.
 */
export function compilePageTemplate(text: string, slots: PageSlots, level = 9): PageTemplate {
  const pieces: string[] = [];
  let from = 0;
  for (const offset of slots.offsets) {
    pieces.push(text.slice(from, offset));
    from = offset + slots.length;
  }
  pieces.push(text.slice(from));
  const parts = pieces.map((part) => Buffer.from(part));
  return {
    parts,
    deflated: parts.map((part) => deflatePiece(part, level)),
    crcs: parts.map((part) => crc32(part)),
    shifts: parts.map((part) => crc32Shift(part.length)),
    partsLength: parts.reduce((sum, part) => sum + part.length, 0),
  };
}

/** Shift operators by value length: a nonce always has the same length, so this holds one or two. */
const valueShifts = new Map<number, Uint32Array>();
function valueShift(length: number) {
  let shift = valueShifts.get(length);
  if (!shift) {
    if (valueShifts.size > 16) valueShifts.clear();
    valueShifts.set(length, (shift = crc32Shift(length)));
  }
  return shift;
}

/** The template's text with `value` in every slot, as UTF-8. */
export function fillPage(template: PageTemplate, value: string): Buffer {
  const valueBytes = Buffer.from(value);
  const chunks: Buffer[] = [];
  template.parts.forEach((part, index) => {
    if (index > 0) chunks.push(valueBytes);
    chunks.push(part);
  });
  return Buffer.concat(chunks);
}

/** The gzip encoding of the template's text with `value` in every slot. */
export function fillPageGzip(template: PageTemplate, value: string): Buffer {
  const valueBytes = Buffer.from(value);
  const valueBlock = storedBlock(valueBytes);
  const valueCrc = crc32(valueBytes);
  const valueShiftOperator = valueShift(valueBytes.length);
  const chunks: Buffer[] = [GZIP_HEADER];
  let crc = 0;
  template.deflated.forEach((deflated, index) => {
    if (index > 0) {
      chunks.push(valueBlock);
      crc = crc32Combine(crc, valueCrc, valueShiftOperator);
    }
    chunks.push(deflated);
    crc = crc32Combine(crc, template.crcs[index]!, template.shifts[index]!);
  });
  const size = template.partsLength + valueBytes.length * (template.parts.length - 1);
  chunks.push(FINAL_BLOCK, gzipTrailer(crc, size));
  return Buffer.concat(chunks);
}
