import { index, route } from "@react-router/dev/routes";
import { describe, expect, it } from "vitest";
import { publicRouteUrls } from "./public-routes";

describe("publicRouteUrls", () => {
  it("lists every public page of app/routes.ts, with seed slugs for its parameters, and nothing of the owner's, the API or files", () => {
    const urls = publicRouteUrls();
    expect(urls).toEqual(
      expect.arrayContaining([
        "/",
        "/about",
        "/product/candy-earrings",
        "/tickets/sip-style",
        "/membership/glow-bee-journey",
        "/blog/the-art-of-upcycling",
      ]),
    );
    expect(urls.filter((url) => /^\/(admin|api|media|payments)\b|\.(xml|txt)$/.test(url))).toEqual([]);
    expect(new Set(urls).size).toBe(urls.length);
  });

  it("stops on a public page with a parameter it has no sample for, rather than leaving it out", () => {
    expect(() => publicRouteUrls([index("routes/home.tsx"), route("account/:id", "routes/account.tsx")])).toThrow(
      /"account\/:id" has no sample URL/,
    );
  });

  it("leaves out resource routes and the owner's pages", () => {
    expect(
      publicRouteUrls([
        route("about", "routes/about.tsx"),
        route("feed.xml", "routes/feed.ts"),
        route("admin/login", "routes/admin-login.tsx"),
      ]),
    ).toEqual(["/about"]);
  });
});
