import { describe, expect, it } from "vitest";
import { MAX_RETURN_PATH, safeReturnPath } from "./return-path";

describe("safeReturnPath", () => {
  it("keeps a checkout's own path and query", () => {
    expect(safeReturnPath("/checkout?bag=1")).toBe("/checkout?bag=1");
    const oneItem = `/checkout?${new URLSearchParams({ type: "ticket", item: "Sip & Style at Nanas - Early Bird" })}`;
    expect(safeReturnPath(oneItem)).toBe(oneItem);
  });

  it.each([
    ["another host", "//evil.example/checkout"],
    ["a full address", "https://evil.example/checkout"],
    ["a scheme without slashes", "javascript:alert(1)"],
    ["a backslash browsers read as a slash", "/\\evil.example"],
    ["a backslash later on", "/checkout\\..\\x"],
    ["a relative path", "checkout?bag=1"],
    ["a tab inside the host part", "/\t/evil.example"],
    ["a new line", "/checkout\n?bag=1"],
    ["nothing", ""],
    ["something not text", 42],
    ["a path too long", `/checkout?item=${"a".repeat(MAX_RETURN_PATH)}`],
  ])("refuses %s", (_, value) => {
    expect(safeReturnPath(value)).toBeNull();
  });

  it("answers the normalised path, so dot segments cannot climb to another host", () => {
    expect(safeReturnPath("/a/../checkout?bag=1")).toBe("/checkout?bag=1");
    expect(safeReturnPath("/.//evil.example")).toBeNull();
  });
});
