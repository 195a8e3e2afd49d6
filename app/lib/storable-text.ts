/**
 * PostgreSQL's text and jsonb cannot hold U+0000: a string containing it fails on insert. Schemas for
 * text stored as sent (analytics events, blog posts, webhook payloads) refuse it with a clear message
 * instead (found by the generated-input tests); the contact and checkout forms drop or refuse control
 * characters of their own accord.
 */
export const isStorableText = (value: string): boolean => !value.includes("\u0000");

/** One line of text: no control characters (a newline or NUL has no place in a name, a phone number or a caption). */
export function isOneLine(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return false;
  }
  return true;
}

/** Text of several lines: line breaks and tabs, but no other control character (and so no NUL). */
export function isCleanText(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f) return false;
  }
  return true;
}
