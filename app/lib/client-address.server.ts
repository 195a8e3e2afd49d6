import net from "node:net";

/** The eight 16-bit groups of an IPv6 address, expanded ("2001:db8::1" → 2001,db8,0,0,0,0,0,1). */
function ipv6Groups(address: string): string[] {
  const [head = "", tail] = address.split("::");
  const split = (part: string) => (part ? part.split(":") : []);
  const headGroups = split(head);
  const tailGroups = tail === undefined ? [] : split(tail);
  const zeros = Array.from({ length: Math.max(0, 8 - headGroups.length - tailGroups.length) }, () => "0");
  return [...headGroups, ...zeros, ...tailGroups].map((group) => group.toLowerCase().replace(/^0+(?=.)/, ""));
}

declare const clientKeyBrand: unique symbol;
/**
 * What every per-address limit counts under. Only `clientAddressKey` makes one, so a limiter whose API
 * takes a ClientKey cannot be handed a raw address (tests/integration/security-review-2.test.ts
 * enumerates the limiters, decision 108).
 */
export type ClientKey = string & { readonly [clientKeyBrand]: true };

/**
 * The key per-address limits count under: an IPv4 address as it is (also when written IPv4-mapped),
 * an IPv6 address by its /64, since one home or phone is handed a whole /64 and could otherwise take
 * a fresh address for every request.
 */
export function clientAddressKey(address: string): ClientKey {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]! as ClientKey;
  if (net.isIPv6(address)) return `${ipv6Groups(address.split("%")[0]!).slice(0, 4).join(":")}::/64` as ClientKey;
  return address as ClientKey;
}

/** The ClientKey of the request a loader or action serves. */
export const requestClientKey = (context: { clientIp: string }): ClientKey => clientAddressKey(context.clientIp);
