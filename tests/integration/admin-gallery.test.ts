import { desc } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { seedDatabase } from "~/db/seed.server";
import { adminAuditLog, galleryPhotos } from "~/db/schema";
import { GALLERY_SEED } from "~/content/gallery";
import { listGalleryPhotos } from "~/gallery/gallery.server";
import * as galleryRoute from "~/routes/admin/gallery";
import * as publicGallery from "~/routes/events-gallery";
import { createTestDatabase } from "../support/test-db";
import { call, get, multipart, post, toastOf } from "../support/admin-content";
import { signedInOwner } from "../support/owner";

let handle: DatabaseHandle;
let cookie: string;
beforeAll(async () => {
  handle = await createTestDatabase();
  cookie = await signedInOwner(handle);
});
afterAll(() => handle?.close());

type PublicPhoto = { src: string; alt: string; caption: string | null };
const publicPhotos = async () =>
  (await call(handle, publicGallery.loader, get("/events-gallery"))).body.photos as PublicPhoto[];
const rows = () => listGalleryPhotos(handle.db);
const act = (fields: Record<string, string>) =>
  call(handle, galleryRoute.action, post("/admin/gallery", fields, cookie));
const lastAudit = async () =>
  (await handle.db.select().from(adminAuditLog).orderBy(desc(adminAuditLog.id)).limit(1))[0];

describe("the events gallery", () => {
  it("shows the 12 seeded workshop images in order, with today's alt texts", async () => {
    const photos = await publicPhotos();
    expect(photos).toEqual(GALLERY_SEED.map((p) => ({ src: p.src, alt: p.alt, caption: null })));
    expect(photos[0]!.alt).toBe("Workshop moment 1 of 12");
  });

  it("is seeded once: a removed photo does not come back on the next start", async () => {
    const [first] = await rows();
    await act({ intent: "remove", id: String(first!.id) });
    await seedDatabase(handle.db);
    expect((await rows()).map((r) => r.src)).not.toContain(first!.src);
    await handle.db.insert(galleryPhotos).values({ src: first!.src, alt: first!.alt, sortOrder: 0 });
  });
});

describe("the gallery in the admin", () => {
  it("adds photos at the end with their alt texts and caption", async () => {
    const answer = await call(
      handle,
      galleryRoute.action,
      multipart(
        "/admin/gallery",
        [
          ["intent", "add"],
          ["photoSrc", "/images/hero/hero.svg"],
          ["photoAlt", "Honeys on the runway"],
          ["photoSrc", "/images/community/video-poster.svg"],
          ["photoAlt", "The community day"],
          ["caption", "Spring show 2025"],
        ],
        cookie,
      ),
    );
    expect(answer.status).toBe(302);
    expect(toastOf(answer)?.title).toBe("2 photos added");
    const photos = await publicPhotos();
    expect(photos.slice(-2)).toEqual([
      { src: "/images/hero/hero.svg", alt: "Honeys on the runway", caption: "Spring show 2025" },
      { src: "/images/community/video-poster.svg", alt: "The community day", caption: "Spring show 2025" },
    ]);
    expect(await lastAudit()).toMatchObject({ action: "gallery.add" });
  });

  it("refuses a photo already in the gallery, no photo at all, and a photo without alt text; nothing changes", async () => {
    const before = await rows();
    for (const fields of [
      [
        ["intent", "add"],
        ["photoSrc", "/images/hero/hero.svg"],
        ["photoAlt", "Again"],
      ],
      [
        ["intent", "add"],
        ["caption", "Nothing chosen"],
      ],
      [
        ["intent", "add"],
        ["photoSrc", "/images/about/about-1.svg"],
        ["photoAlt", "  "],
      ],
      [
        ["intent", "add"],
        ["photoSrc", "/images/about/about-1.svg"],
        ["photoAlt", "Twice"],
        ["photoSrc", "/images/about/about-1.svg"],
        ["photoAlt", "Twice"],
      ],
    ] as [string, string][][]) {
      const answer = await call(handle, galleryRoute.action, multipart("/admin/gallery", fields, cookie));
      expect(answer.status).toBe(400);
      expect((answer.body.fieldErrors as Record<string, string>).photos).toBeTruthy();
    }
    expect(await rows()).toEqual(before);
  });

  it("captions a photo and changes its alt text; the public gallery shows them", async () => {
    const photo = (await rows())[2]!;
    const answer = await act({
      intent: "caption",
      id: String(photo.id),
      alt: "Cutting the first pattern",
      caption: "Tablecloth skirt workshop",
    });
    expect(answer.status).toBe(302);
    expect((await publicPhotos())[2]).toEqual({
      src: photo.src,
      alt: "Cutting the first pattern",
      caption: "Tablecloth skirt workshop",
    });
    expect(await lastAudit()).toMatchObject({
      action: "gallery.update",
      before: { alt: photo.alt, caption: null },
      after: { alt: "Cutting the first pattern", caption: "Tablecloth skirt workshop" },
    });
  });

  it("moves a photo up and down, and the public order follows", async () => {
    const before = (await rows()).map((r) => r.src);
    const third = (await rows())[2]!;
    await act({ intent: "move", id: String(third.id), direction: "up" });
    const afterUp = (await publicPhotos()).map((p) => p.src);
    expect(afterUp).toEqual([before[0], before[2], before[1], ...before.slice(3)]);
    await act({ intent: "move", id: String(third.id), direction: "down" });
    expect((await publicPhotos()).map((p) => p.src)).toEqual(before);
    expect(await lastAudit()).toMatchObject({ action: "gallery.move" });
  });

  it("refuses to move the first photo up or the last down, and changes nothing", async () => {
    const list = await rows();
    const before = list.map((r) => [r.id, r.sortOrder]);
    expect((await act({ intent: "move", id: String(list[0]!.id), direction: "up" })).status).toBe(400);
    expect((await act({ intent: "move", id: String(list.at(-1)!.id), direction: "down" })).status).toBe(400);
    expect((await rows()).map((r) => [r.id, r.sortOrder])).toEqual(before);
  });

  it("removes a photo", async () => {
    const photo = (await rows()).at(-1)!;
    const answer = await act({ intent: "remove", id: String(photo.id) });
    expect(toastOf(answer)?.title).toBe("Photo removed");
    expect((await publicPhotos()).map((p) => p.src)).not.toContain(photo.src);
    expect((await act({ intent: "remove", id: String(photo.id) })).status).toBe(404);
  });

  it.each([
    [{ intent: "caption", id: "1", alt: "", caption: "" }, "alt"],
    [{ intent: "caption", id: "1", alt: "Fine", caption: "Two\nlines" }, "caption"],
    [{ intent: "caption", id: "x", alt: "Fine", caption: "" }, "id"],
    [{ intent: "move", id: "1", direction: "sideways" }, "direction"],
    [{ intent: "remove", id: "-1" }, "id"],
    [{ intent: "shuffle" }, "form"],
  ])("refuses %j with a message (%s) and changes nothing", async (fields, field) => {
    const before = await rows();
    const answer = await act(fields as Record<string, string>);
    expect(answer.status).toBe(400);
    expect((answer.body.fieldErrors as Record<string, string>)[field]).toBeTruthy();
    expect(await rows()).toEqual(before);
  });
});
