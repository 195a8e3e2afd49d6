import { createHmac } from "node:crypto";

/**
 * A value the shop may compare but must not keep in the clear (a client's address, an email address
 * in evidence): HMAC-SHA256 keyed with the session secret, the same on every instance, under a purpose
 * prefix so one kind of hash never matches another. 32 hex characters, as the stock holds keep them.
 */
export function keyedHash(secret: string, purpose: string, value: string): string {
  return createHmac("sha256", secret).update(`${purpose}:${value}`).digest("hex").slice(0, 32);
}
