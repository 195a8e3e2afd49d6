import type { Request, Response } from "express";
import { describe, expect, it } from "vitest";
import {
  acceptsMultipart,
  bodyLimitFor,
  limitRequestBodies,
  MAX_ADMIN_MULTIPART_BYTES,
  MAX_BODY_BYTES,
  MAX_PHOTO_UPLOAD_BYTES,
  requireFormBodies,
} from "./body-limits";

const MB = 1024 * 1024;

/** Runs one middleware on a fake request and says what it did: passed on, or answered with a status. */
function run(
  middleware: typeof limitRequestBodies,
  path: string,
  headers: Record<string, string>,
  method = "POST",
): number | "next" {
  let outcome: number | "next" = "next";
  const res = {
    status(code: number) {
      outcome = code;
      return res;
    },
    type: () => res,
    send: () => res,
  };
  middleware({ method, path, headers } as unknown as Request, res as unknown as Response, () => {});
  return outcome;
}

const multipart = "multipart/form-data; boundary=----x";
const form = "application/x-www-form-urlencoded";

describe("body limits: multipart for the owner's pages only, every other path as before", () => {
  it("keeps 1 MB and HTML forms only for public pages, the sign-in page and the API", () => {
    for (const path of [
      "/contact",
      "/blog",
      "/checkout",
      "/admin/login",
      "/admin/login.data",
      "/admin",
      "/",
      "/api/analytics",
    ]) {
      expect(bodyLimitFor(path, form), path).toBe(MAX_BODY_BYTES);
      expect(bodyLimitFor(path, multipart), path).toBe(MAX_BODY_BYTES);
      expect(
        run(limitRequestBodies, path, { "content-type": multipart, "content-length": String(MAX_BODY_BYTES + 1) }),
        path,
      ).toBe(413);
      expect(
        run(limitRequestBodies, path, { "content-type": form, "content-length": String(MAX_BODY_BYTES) }),
        path,
      ).toBe("next");
    }
    for (const path of ["/contact", "/blog", "/admin/login", "/admin"]) {
      expect(run(requireFormBodies, path, { "content-type": multipart }), path).toBe(415);
      expect(run(requireFormBodies, path, { "content-type": form }), path).toBe("next");
    }
  });

  it("takes one photo of up to 25 MB at /admin/photos and forms with photos of up to 210 MB elsewhere under /admin/", () => {
    expect(MAX_PHOTO_UPLOAD_BYTES).toBe(25 * MB);
    expect(MAX_ADMIN_MULTIPART_BYTES).toBe(210 * MB);
    expect(bodyLimitFor("/admin/photos", multipart)).toBe(MAX_PHOTO_UPLOAD_BYTES);
    expect(
      run(limitRequestBodies, "/admin/photos", { "content-type": multipart, "content-length": String(25 * MB) }),
    ).toBe("next");
    expect(
      run(limitRequestBodies, "/admin/photos", { "content-type": multipart, "content-length": String(25 * MB + 1) }),
    ).toBe(413);
    // The same path without a file keeps the page limit.
    expect(run(limitRequestBodies, "/admin/photos", { "content-type": form, "content-length": String(2 * MB) })).toBe(
      413,
    );
    for (const path of [
      "/admin/products/new",
      "/admin/products/candy-earrings.data",
      "/admin/gallery",
      "/admin/events/sip_style",
    ]) {
      expect(acceptsMultipart(path), path).toBe(true);
      expect(run(requireFormBodies, path, { "content-type": multipart }), path).toBe("next");
      expect(
        run(limitRequestBodies, path, { "content-type": multipart, "content-length": String(210 * MB) }),
        path,
      ).toBe("next");
      expect(
        run(limitRequestBodies, path, { "content-type": multipart, "content-length": String(210 * MB + 1) }),
        path,
      ).toBe(413);
    }
  });

  it("never lets a large body through on a path the router could resolve outside /admin/", () => {
    for (const path of [
      "/admin/%2e%2e/contact",
      "/admin/../contact",
      "/admin/.%2e/blog",
      "/admin//contact",
      "/admin/x%2Fy",
      "/adminx/photos",
      "/api/admin/photos",
    ]) {
      expect(acceptsMultipart(path), path).toBe(false);
      expect(run(limitRequestBodies, path, { "content-type": multipart, "content-length": String(2 * MB) }), path).toBe(
        413,
      );
    }
  });

  it("still refuses chunked bodies and bad lengths everywhere", () => {
    expect(
      run(limitRequestBodies, "/admin/photos", { "content-type": multipart, "transfer-encoding": "chunked" }),
    ).toBe(411);
    expect(run(limitRequestBodies, "/admin/photos", { "content-type": multipart, "content-length": "-1" })).toBe(400);
  });
});
