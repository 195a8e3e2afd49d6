import { constants, deflateRawSync } from "node:zlib";

/**
 * Gzip answers laid together from pieces compressed apart (decision 098, 148): each piece is raw deflate
 * ending in a full flush, byte-aligned and with no back-references into what follows, so pieces can be
 * laid end to end; a gzip member is then the header, the pieces, an empty final block, and the trailer
 * (CRC-32 and length of the whole text). A piece that is the same in every answer (a cached page's text,
 * the inline stylesheet) is compressed once; any browser inflates the result as usual.
 */

// ID1 ID2, deflate, no flags, no modification time, no extra flags, unknown OS (RFC 1952).
export const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
export const FINAL_BLOCK = deflateRawSync(Buffer.alloc(0));

/** `bytes` as raw deflate ending in a full flush: a piece that can be followed by any other. */
export const deflatePiece = (bytes: Buffer, level?: number) =>
  deflateRawSync(bytes, { level, finishFlush: constants.Z_FULL_FLUSH });

/**
 * `bytes` as one stored (uncompressed) deflate block, not final: for a cached page's nonce, which is
 * random, so compressing it saved nothing; a zlib stream per response and the page's checksum were
 * most of the 47 µs a gzipped hit spent on it (7.5 µs now, decision 098). The pieces before it end
 * byte-aligned (full flush), which is where a stored block's header goes.
 */
export function storedBlock(bytes: Buffer): Buffer {
  if (bytes.length > 0xffff) return deflatePiece(bytes);
  const block = Buffer.allocUnsafe(5 + bytes.length);
  block[0] = 0; // BFINAL 0, BTYPE 00 (stored), then padding to the byte boundary
  block.writeUInt16LE(bytes.length, 1);
  block.writeUInt16LE(~bytes.length & 0xffff, 3);
  bytes.copy(block, 5);
  return block;
}

/** The gzip trailer: the whole text's CRC-32 and its length in bytes (modulo 2^32). */
export function gzipTrailer(crc: number, size: number): Buffer {
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size % 2 ** 32, 4);
  return trailer;
}

// CRC-32 of a concatenation from the CRCs of its parts (zlib's crc32_combine, which Node does not
// expose), instead of checksumming a whole ~80 KB page again on every response.
// A CRC moved past n zero bytes is a linear map over GF(2), a 32x32 bit matrix: one per part length
// is computed when the part is made, and a response applies it in 32 steps.
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
