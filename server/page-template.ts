import { constants, crc32, deflateRawSync } from "node:zlib";

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

// ID1 ID2, deflate, no flags, no modification time, no extra flags, unknown OS (RFC 1952).
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
const FINAL_BLOCK = deflateRawSync(Buffer.alloc(0));
const piece = (bytes: Buffer, level?: number) => deflateRawSync(bytes, { level, finishFlush: constants.Z_FULL_FLUSH });

/**
 * `bytes` as one stored (uncompressed) deflate block, not final. A nonce is random: compressing it saved
 * nothing, and a zlib stream per response and the page's checksum below were most of the 47 µs a
 * gzipped hit spent here (7.5 µs now, decision 098). The pieces before it end byte-aligned (full
 * flush), which is where a stored block's header goes.
 */
function storedBlock(bytes: Buffer): Buffer {
  if (bytes.length > 0xffff) return piece(bytes);
  const block = Buffer.allocUnsafe(5 + bytes.length);
  block[0] = 0; // BFINAL 0, BTYPE 00 (stored), then padding to the byte boundary
  block.writeUInt16LE(bytes.length, 1);
  block.writeUInt16LE(~bytes.length & 0xffff, 3);
  bytes.copy(block, 5);
  return block;
}

// CRC-32 of a concatenation from the CRCs of its parts (zlib's crc32_combine, which Node does not
// expose), instead of checksumming the whole ~80 KB page again on every response.
// A CRC moved past n zero bytes is a linear map over GF(2), a 32x32 bit matrix: one per part length
// is computed when the page is cached, and a response applies it in 32 steps.
const GF2_DIM = 32;
const timesMatrix = (matrix: Uint32Array, vector: number) => {
  let sum = 0;
  for (let i = 0; vector !== 0; i++, vector >>>= 1) if (vector & 1) sum ^= matrix[i]!;
  return sum >>> 0;
};
const squareMatrix = (matrix: Uint32Array) => {
  const square = new Uint32Array(GF2_DIM);
  for (let i = 0; i < GF2_DIM; i++) square[i] = timesMatrix(matrix, matrix[i]!);
  return square;
};

/** The operator that moves a CRC-32 past `length` bytes (zlib's crc32_combine_gen). */
export function crc32Shift(length: number): Uint32Array {
  // The operator for one zero bit: the reflected polynomial in the first row, then shifts.
  let power = new Uint32Array(GF2_DIM);
  power[0] = 0xedb88320;
  for (let i = 1, row = 1; i < GF2_DIM; i++, row <<= 1) power[i] = row;
  power = squareMatrix(squareMatrix(squareMatrix(power))); // one zero byte
  let result: Uint32Array | undefined;
  for (let n = length; n > 0; n >>>= 1) {
    if (n & 1) result = result ? multiply(power, result) : power;
    if (n > 1) power = squareMatrix(power);
  }
  return result ?? identity();
}
const multiply = (a: Uint32Array, b: Uint32Array) => b.map((column) => timesMatrix(a, column));
const identity = () => Uint32Array.from({ length: GF2_DIM }, (_, i) => 2 ** i);

/** The CRC-32 of A followed by B, from crc(A), crc(B) and crc32Shift(length of B). */
export const crc32Combine = (crcA: number, crcB: number, shiftB: Uint32Array) =>
  (timesMatrix(shiftB, crcA) ^ crcB) >>> 0;

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
    deflated: parts.map((part) => piece(part, level)),
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
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size % 2 ** 32, 4);
  chunks.push(FINAL_BLOCK, trailer);
  return Buffer.concat(chunks);
}
