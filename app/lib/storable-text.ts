/**
 * PostgreSQL's text and jsonb cannot hold U+0000: a string containing it fails on insert. Every schema
 * for text a visitor or the owner sends refuses it with a clear message instead (found by the
 * generated-input tests).
 */
export const isStorableText = (value: string): boolean => !value.includes("\u0000");
