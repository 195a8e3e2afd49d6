import { randomFillSync } from "node:crypto";

const NONCE_BYTES = 16;
const NONCES_PER_READ = 256;
const pool = Buffer.alloc(NONCE_BYTES * NONCES_PER_READ);
let offset = pool.length;

/**
 * A fresh CSP nonce (16 random bytes, base64). The bytes come from the operating system's CSPRNG
 * 256 nonces at a time, as `crypto.randomUUID` does for its ids: one read per response cost a call
 * into OpenSSL and a new buffer for every page served from memory (decision 098). Each nonce uses
 * bytes no other nonce used.
 */
export function newNonce(): string {
  if (offset === pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const nonce = pool.toString("base64", offset, offset + NONCE_BYTES);
  offset += NONCE_BYTES;
  return nonce;
}
