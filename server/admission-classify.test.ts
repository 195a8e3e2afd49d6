import { describe, expect, it } from "vitest";
import { classifyRequest } from "./admission";

describe("classifyRequest", () => {
  it.each([
    ["POST", "/checkout?type=product&item=Candy%20Earrings", "till"],
    ["POST", "/checkout.data", "till"],
    ["GET", "/payments/simulator/7d0c", "till"],
    ["POST", "/payments/simulator/7d0c", "till"],
    ["GET", "/order-confirmation?status=success&orderId=7d0c", "till"],
    ["GET", "/order-confirmation.data?orderId=7d0c", "till"],
    ["POST", "/api/webhooks/yoco", "till"],
    ["POST", "/api/payfast/itn", "till"],
    ["GET", "/admin", "till"],
    ["GET", "/admin.data", "till"],
    ["POST", "/admin/login", "till"],
    ["GET", "/admin/orders/7d0c", "till"],
    ["GET", "/healthz", "till"],
    ["GET", "/checkout?type=product&item=Candy%20Earrings", "bulk"],
    ["GET", "/", "bulk"],
    ["HEAD", "/product/candy-earrings", "bulk"],
    ["POST", "/api/analytics", "bulk"],
    ["GET", "/assets/entry.client-abc123.js", "bulk"],
    ["GET", "/media/photo.avif", "bulk"],
    ["POST", "/contact", "write"],
    ["POST", "/contact.data", "write"],
    ["POST", "/account/sign-in", "write"],
    ["POST", "/product/candy-earrings", "write"],
    ["GET", "/contact", "bulk"],
    ["OPTIONS", "/contact", "bulk"],
    ["POST", "/api/analytics?x=1", "bulk"],
    ["GET", "/administrator", "bulk"],
    ["GET", "/payments-and-returns", "bulk"],
    ["POST", "/checkouts", "write"],
    ["GET", "/bag", "write"],
    ["GET", "/bag.data", "write"],
    ["POST", "/bag", "write"],
    ["HEAD", "/bag", "bulk"],
    ["GET", "/bags", "bulk"],
  ] as const)("%s %s is %s", (method, url, expected) => {
    expect(classifyRequest(method, url)).toBe(expected);
  });
});
