import { crc32, gzipSync } from "node:zlib";
import Negotiator from "negotiator";
import type { DocumentPieces } from "./document-rewrite.server";
import { crc32Combine, crc32Shift, deflatePiece, FINAL_BLOCK, GZIP_HEADER, gzipTrailer } from "./gzip-pieces.server";

/**
 * A page drawn for one visitor (the bag, a checkout form, the admin) is sent as bytes made here, not
 * compressed by the compression middleware (decision 148). Its ~54 KB inline stylesheet is the same in
 * every page: as text it was encoded to UTF-8 and compressed again on every response, most of the
 * response's compression (about 0.6 of 0.8 ms at Brotli 4 or gzip 6). Here its tag is encoded and
 * deflated once, and only the page's own text is compressed per response.
 */
export interface InlineStylesheet {
  /** The `<style>` element as UTF-8. */
  readonly bytes: Buffer;
  /** The same as raw deflate ending in a full flush, for laying between two pieces. */
  readonly deflated: Buffer;
  readonly crc: number;
  readonly shift: Uint32Array;
}

export function inlineStylesheet(css: string): InlineStylesheet {
  if (css.includes("</style")) throw new Error("the stylesheet must not contain </style");
  const bytes = Buffer.from(`<style data-stylesheet="app">${css}</style>`);
  return { bytes, deflated: deflatePiece(bytes, 9), crc: crc32(bytes), shift: crc32Shift(bytes.length) };
}

/**
 * Whether to send a document gzipped. Gzip wherever it is accepted, even where Brotli is too: made
 * from the stylesheet's stored piece it costs a fifth of the CPU of Brotli 4 on the whole page and is
 * 1–2% larger (14.4 against 14.2 KB for a bag of 3). A client that takes only Brotli gets it from the
 * compression middleware, as before.
 */
export function acceptsGzip(acceptEncoding: string | null): boolean {
  if (!acceptEncoding) return false;
  return new Negotiator({ headers: { "accept-encoding": acceptEncoding } }).encoding(["gzip", "identity"]) === "gzip";
}

/** The document's bytes, gzipped or not, in the order they are sent. */
export function encodeDocument(pieces: DocumentPieces, stylesheet: InlineStylesheet, gzip: boolean): Buffer[] {
  const head = Buffer.from(pieces.head);
  if (!pieces.stylesheet) return [gzip ? gzipSync(head) : head];
  const rest = Buffer.from(pieces.rest);
  if (!gzip) return [head, stylesheet.bytes, rest];
  const crc = crc32(rest, crc32Combine(crc32(head), stylesheet.crc, stylesheet.shift));
  return [
    GZIP_HEADER,
    deflatePiece(head),
    stylesheet.deflated,
    deflatePiece(rest),
    FINAL_BLOCK,
    gzipTrailer(crc, head.length + stylesheet.bytes.length + rest.length),
  ];
}
