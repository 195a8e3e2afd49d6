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
 * header, the stored pieces with the nonce (compressed on its own, a few bytes) between them, an empty
 * final block, and the trailer (CRC-32 and length of the whole text). One valid gzip member: any
 * browser inflates it as usual.
 */
export interface PageTemplate {
  /** The text between the slots, as bytes (for the checksum). */
  readonly parts: readonly Buffer[];
  /** Each part as raw deflate ending in a full flush. */
  readonly deflated: readonly Buffer[];
}

// ID1 ID2, deflate, no flags, no modification time, no extra flags, unknown OS (RFC 1952).
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
const FINAL_BLOCK = deflateRawSync(Buffer.alloc(0));
const piece = (bytes: Buffer, level?: number) => deflateRawSync(bytes, { level, finishFlush: constants.Z_FULL_FLUSH });
// Node 20's zlib.crc32 answers 0 for an empty buffer that zlib has compressed (not the running value):
// an empty piece changes nothing, so it is skipped.
const extend = (crc: number, bytes: Buffer) => (bytes.length ? crc32(bytes, crc) : crc);

/** Splits the text at every occurrence of `slot` and compresses the pieces, once. */
export function compilePageTemplate(text: string, slot: string, level = 9): PageTemplate {
  const parts = text.split(slot).map((part) => Buffer.from(part));
  return { parts, deflated: parts.map((part) => piece(part, level)) };
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
  const valueDeflated = piece(valueBytes);
  const chunks: Buffer[] = [GZIP_HEADER];
  let crc = 0;
  let size = 0;
  template.parts.forEach((part, index) => {
    if (index > 0) {
      chunks.push(valueDeflated);
      crc = extend(crc, valueBytes);
      size += valueBytes.length;
    }
    chunks.push(template.deflated[index]);
    crc = extend(crc, part);
    size += part.length;
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size % 2 ** 32, 4);
  chunks.push(FINAL_BLOCK, trailer);
  return Buffer.concat(chunks);
}
