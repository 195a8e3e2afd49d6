import { describe, expect, it } from "vitest";
import { mailtoHref } from "./mailto";

/** What a mail client reads from the link (RFC 6068): recipients before `?`, headers after it. */
function parseMailto(href: string) {
  const url = new URL(href);
  return { to: url.pathname.split(",").map(decodeURIComponent), headers: [...url.searchParams.keys()] };
}

describe("mailtoHref", () => {
  it("leaves an ordinary address readable", () => {
    expect(mailtoHref("thandi@example.com")).toBe("mailto:thandi@example.com");
  });

  it("keeps a visitor's ?cc= inside the one address instead of adding a recipient", () => {
    const href = mailtoHref("a?cc=attacker@evil.example");
    expect(href).toBe("mailto:a%3Fcc%3Dattacker@evil.example");
    expect(parseMailto(href)).toEqual({ to: ["a?cc=attacker@evil.example"], headers: [] });
  });

  it("encodes every character that could add headers or recipients", () => {
    for (const address of ["a&bcc=x@evil.example", "a,b@evil.example", "a%3Fcc=x@e.example", "a b#c@e.example"]) {
      const href = mailtoHref(address);
      expect(href).not.toMatch(/[?&,# ]/);
      expect(parseMailto(href)).toEqual({ to: [address], headers: [] });
    }
  });
});
