/**
 * A mailto: link that writes to exactly this one address. The address is a visitor's, so it is
 * percent-encoded whole: a `?`, `&`, `,` or `%` in it stays part of the address instead of adding
 * headers (`?cc=`, `&bcc=`, `&body=`) or further recipients. `@` is left readable (RFC 6068 allows
 * either).
 */
export function mailtoHref(address: string): string {
  return `mailto:${encodeURIComponent(address).replaceAll("%40", "@")}`;
}
