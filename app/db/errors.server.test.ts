import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./errors.server";

describe("isDatabaseUnavailable", () => {
  it("recognises connection failures, also when wrapped as a cause", () => {
    expect(
      isDatabaseUnavailable(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })),
    ).toBe(true);
    expect(
      isDatabaseUnavailable(new Error("Failed query", { cause: Object.assign(new Error("x"), { code: "57P01" }) })),
    ).toBe(true);
    expect(isDatabaseUnavailable(new Error('database "shop" is not currently accepting connections'))).toBe(true);
    expect(isDatabaseUnavailable(new Error("PGlite is closed"))).toBe(true);
  });

  it("does not mistake query bugs or other errors for an outage", () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('relation "x" does not exist'), { code: "42P01" }))).toBe(
      false,
    );
    expect(isDatabaseUnavailable(new TypeError("undefined is not a function"))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
    expect(isDatabaseUnavailable("string")).toBe(false);
  });
});
