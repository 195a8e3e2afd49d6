import { describe, expect, it } from "vitest";
import { normaliseSaPhone, telHref, whatsAppHref } from "./phone";

describe("normaliseSaPhone", () => {
  it.each([
    "072 481 3396",
    "0724813396",
    "+27 72 481 3396",
    "27724813396",
    "+27724813396",
    "+27 (0)72 481 3396",
    "0027 72 481 3396",
    "(072) 481-3396",
    "072.481.3396",
    "  072 481 3396  ",
  ])("%s is +27 72 481 3396", (typed) => {
    expect(normaliseSaPhone(typed)).toBe("+27 72 481 3396");
  });

  it("keeps landlines and toll-free numbers, grouped the same way", () => {
    expect(normaliseSaPhone("021 123 4567")).toBe("+27 21 123 4567");
    expect(normaliseSaPhone("0800 123 456")).toBe("+27 80 012 3456");
  });

  it.each([
    ["", "empty"],
    ["call me", "letters"],
    ["072 481 339", "a digit short"],
    ["072 481 33961", "a digit too many"],
    ["+44 20 7946 0958", "another country"],
    ["724813396", "no trunk prefix or country code"],
    ["092 481 3396", "9 is not allocated"],
    ["000 481 3396", "a second zero"],
    ["072 481 3396 / 082 111 2222", "two numbers"],
    ["++27 72 481 3396", "two plus signs"],
    ["27 72 481 339", "27 and too few digits"],
    ["072\u0000481 3396", "a control character"],
  ])("%j is refused (%s)", (typed) => {
    expect(normaliseSaPhone(typed)).toBeNull();
  });
});

describe("phone links", () => {
  it("link to the international number without spaces", () => {
    expect(telHref("+27 72 481 3396")).toBe("tel:+27724813396");
    expect(telHref("072 481 3396")).toBe("tel:+27724813396");
    expect(whatsAppHref("+27 72 481 3396")).toBe("https://wa.me/27724813396");
    expect(whatsAppHref("072 481 3396")).toBe("https://wa.me/27724813396");
  });

  it("keep an older stored number's own digits, and give no WhatsApp link without a country", () => {
    expect(telHref("+44 20 7946 0958")).toBe("tel:+442079460958");
    expect(whatsAppHref("+44 20 7946 0958")).toBeNull();
    expect(whatsAppHref("")).toBeNull();
  });
});
