import { describe, expect, it } from "vitest";
import { apiSignature, formSignature, itnParamString, itnSignature, pfEncode } from "./signature";

// The worked examples of /work/shared/payments-payfast.md §3.
describe("PayFast signatures", () => {
  it("encodes as PHP's urlencode does", () => {
    expect(pfEncode("thandi+club@example.test")).toBe("thandi%2Bclub%40example.test");
    expect(pfEncode("Gold Membership - Monthly")).toBe("Gold+Membership+-+Monthly");
    expect(pfEncode("it's (ok)*~!")).toBe("it%27s+%28ok%29%2A%7E%21");
  });

  it("signs a subscription form in PayFast's field order, leaving out empty values but keeping 0", () => {
    const signature = formSignature(
      {
        cycles: "0",
        frequency: "3",
        recurring_amount: "149.00",
        billing_date: "2025-07-01",
        subscription_type: "1",
        custom_str1: "member 42",
        custom_int1: "42",
        item_name: "Gold Membership - Monthly",
        amount: "149.00",
        m_payment_id: "chk_7Q2",
        email_address: "thandi+club@example.test",
        name_last: "",
        name_first: "Thandi",
        notify_url: "https://club.example.test/api/payfast/itn",
        cancel_url: "https://club.example.test/billing/cancel",
        return_url: "https://club.example.test/billing/return",
        merchant_key: "46f0cd694581a",
        merchant_id: "10000100",
      },
      "jt7NOE43FZPn",
    );
    expect(signature).toBe("6955f03a17553ac8a791f9c199322774");
  });

  it("signs an API call over headers and body sorted by name, the passphrase sorted in", () => {
    const signature = apiSignature(
      { "merchant-id": "10000100", version: "v1", timestamp: "2025-07-01T10:00:00+02:00", testing: "true" },
      "jt7NOE43FZPn",
    );
    expect(signature).toBe("ef91b0be7d3f222e5c2a3534efd0c295");
  });

  it("signs an ITN over every field in the order received, empty ones included, up to the signature", () => {
    const pairs: [string, string][] = [
      ["m_payment_id", "abc"],
      ["name_last", ""],
      ["amount_gross", "450.00"],
      ["signature", "x"],
      ["after", "ignored"],
    ];
    expect(itnParamString(pairs)).toBe("m_payment_id=abc&name_last=&amount_gross=450.00");
    expect(itnSignature(pairs, "pp")).toMatch(/^[0-9a-f]{32}$/);
    expect(itnSignature(pairs, "pp")).not.toBe(itnSignature(pairs.slice(0, 2), "pp"));
  });
});
