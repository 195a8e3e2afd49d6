/** Longer than any checkout's own address (a one-item query string of a long name), short enough to sit in a link. */
export const MAX_RETURN_PATH = 600;

const SAME_SITE = "http://return-path.invalid";

/**
 * A path on this site to send a visitor back to after signing in, or null. Only a relative path that the
 * browser cannot read as another host passes: no scheme, no "//host", no backslash (browsers read "/\host"
 * as "//host") and no control characters; the answer is the path and query as the URL parser normalised them.
 */
export function safeReturnPath(value: unknown): string | null {
  if (typeof value !== "string" || value.length > MAX_RETURN_PATH) return null;
  if (!value.startsWith("/") || value.startsWith("//")) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(value)) return null;
  let parsed: URL;
  try {
    parsed = new URL(value, SAME_SITE);
  } catch {
    return null;
  }
  if (parsed.origin !== SAME_SITE) return null;
  const path = parsed.pathname + parsed.search;
  return path.startsWith("//") ? null : path;
}
