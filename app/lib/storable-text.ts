/**
 * PostgreSQL's text and jsonb cannot hold U+0000: a string containing it fails on insert. Schemas for
 * text stored as sent (analytics events, blog posts, webhook payloads) refuse it with a clear message
 * instead (found by the generated-input tests); the contact and checkout forms drop or refuse control
 * characters of their own accord.
 */
export const isStorableText = (value: string): boolean => !value.includes("\u0000");
