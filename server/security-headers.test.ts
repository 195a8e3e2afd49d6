import { describe, expect, it } from "vitest";
import { testConfig } from "../tests/support/test-db";
import { securityHeaders } from "./security-headers";

function headersFrom(production: boolean): Map<string, string> {
  const headers = new Map<string, string>();
  const res = {
    locals: { nonce: "abc" },
    setHeader: (name: string, value: unknown) => headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
    getHeader: (name: string) => headers.get(name.toLowerCase()),
  };
  const config = testConfig({
    isProduction: production,
    env: production ? "production" : "development",
    siteUrl: production ? "https://shop.example" : "http://localhost:3000",
  });
  securityHeaders(config, { dev: false })({ headers: {}, method: "GET" } as never, res as never, () => {});
  return headers;
}

describe("security headers", () => {
  it("send HSTS and upgrade-insecure-requests only in production", () => {
    const production = headersFrom(true);
    expect(production.get("strict-transport-security")).toContain("max-age=63072000");
    expect(production.get("content-security-policy")).toContain("upgrade-insecure-requests");
    const development = headersFrom(false);
    expect(development.has("strict-transport-security")).toBe(false);
    expect(development.get("content-security-policy")).not.toContain("upgrade-insecure-requests");
  });

  it("put the response's nonce in script-src", () => {
    expect(headersFrom(false).get("content-security-policy")).toContain("script-src 'self' 'nonce-abc'");
  });
});
