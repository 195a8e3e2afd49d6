import { describe, expect, it } from "vitest";
import { clientAddressKey } from "./client-address.server";

describe("clientAddressKey", () => {
  it("keeps an IPv4 address, also when written IPv4-mapped", () => {
    expect(clientAddressKey("203.0.113.9")).toBe("203.0.113.9");
    expect(clientAddressKey("::ffff:203.0.113.9")).toBe("203.0.113.9");
  });

  it("counts every IPv6 address of one /64 as one client", () => {
    expect(clientAddressKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(clientAddressKey("2001:0db8:0001:0002:ffff:1:2:3")).toBe("2001:db8:1:2::/64");
    expect(clientAddressKey("2001:db8::5")).toBe("2001:db8:0:0::/64");
    expect(clientAddressKey("2001:db8:1:3::1")).not.toBe(clientAddressKey("2001:db8:1:2::1"));
  });
});
