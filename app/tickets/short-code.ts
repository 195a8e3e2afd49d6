/**
 * The door's short code: eight characters a person can read aloud and type, printed under the QR.
 * The alphabet leaves out 0/O and 1/I/L, which look and sound alike; typing is case-insensitive and
 * may keep the separator. The 144-bit code in the QR stays the ticket page's credential: a short code
 * is unique only within its event and admits only at the door, behind the owner's sign-in.
 */
export const SHORT_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
export const SHORT_CODE_LENGTH = 8;

const SHORT_CODE = new RegExp(`^[${SHORT_CODE_ALPHABET}]{${SHORT_CODE_LENGTH}}$`);

/** "ABCD-EFGH": two groups of four, the way it is printed and read aloud. */
export function formatShortCode(code: string): string {
  return SHORT_CODE.test(code) ? `${code.slice(0, 4)}-${code.slice(4)}` : code;
}

/** A typed short code ("abcd efgh", "ABCD-EFGH") as stored, or null when it is not one. */
export function parseShortCode(input: string): string | null {
  const compact = input.replace(/[\s-]/g, "").toUpperCase();
  return SHORT_CODE.test(compact) ? compact : null;
}
