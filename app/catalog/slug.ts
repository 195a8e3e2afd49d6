/**
 * Slugs and ids in the shop's URLs are short words of letters, digits, hyphens and underscores.
 * Anything else cannot name a row, so lookups answer "not found" without asking the database:
 * a NUL byte or a 5,000-character path would otherwise reach PostgreSQL, which refuses NUL with an error.
 */
const SLUG = /^[A-Za-z0-9][A-Za-z0-9_-]{0,199}$/;

export function isPlausibleSlug(value: string): boolean {
  return SLUG.test(value);
}
