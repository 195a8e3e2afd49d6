import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sitemapPaths } from "~/catalog/sitemap.server";
import { loadHome } from "~/home/home.server";
import type { DatabaseHandle } from "~/db/client.server";
import { adminAuditLog, blogPosts } from "~/db/schema";
import * as blogEditRoute from "~/routes/admin/blog-edit";
import * as adminBlogRoute from "~/routes/admin/blog";
import * as blogRoute from "~/routes/blog";
import * as postRoute from "~/routes/blog-post";
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

const SLUG = "the-art-of-upcycling";
const postRow = async (slug = SLUG) => (await handle.db.select().from(blogPosts).where(eq(blogPosts.slug, slug)))[0];
const publicSlugs = async () =>
  ((await call(handle, blogRoute.loader, get("/blog"))).body.posts as { slug: string }[]).map((p) => p.slug);
const lastAudit = async () =>
  (await handle.db.select().from(adminAuditLog).orderBy(desc(adminAuditLog.id)).limit(1))[0];
const editFields = (overrides: Record<string, string> = {}): [string, string][] =>
  Object.entries({
    intent: "save",
    title: "Mending, a love letter",
    excerpt: "Why we mend.",
    author: "",
    category: "Care",
    content: "A **stitch** in time.",
    audience: "public",
    ...overrides,
  });

describe("the admin's blog list", () => {
  it("lists published posts and drafts with status, date and views", async () => {
    await handle.db.insert(blogPosts).values({
      slug: "a-draft",
      title: "A draft",
      excerpt: "E",
      content: "C",
      publishedOn: "2025-09-01",
      published: false,
    });
    const list = await call(handle, adminBlogRoute.loader, get("/admin/blog", cookie));
    const posts = list.body.posts as { slug: string; published: boolean; views: number; publishedOn: string }[];
    expect(posts.map((p) => [p.slug, p.published])).toEqual(
      expect.arrayContaining([
        [SLUG, true],
        ["a-draft", false],
      ]),
    );
    expect(list.body.total).toBe(3);
  });
});

describe("unpublishing, publishing and deleting a post", () => {
  it("unpublish: gone from /blog, the home page and the sitemap; its address and its reactions answer 404", async () => {
    const { id } = (await postRow())!;
    expect(await publicSlugs()).toContain(SLUG);
    const answer = await call(
      handle,
      blogEditRoute.action,
      post(`/admin/blog/${id}`, { intent: "unpublish" }, cookie),
      { id: String(id) },
    );
    expect(answer.status).toBe(302);
    expect(toastOf(answer)?.title).toBe("Post unpublished");
    expect((await postRow())!.published).toBe(false);
    expect(await lastAudit()).toMatchObject({
      action: "post.unpublish",
      entityId: String(id),
      before: { published: true },
      after: { published: false },
    });

    expect(await publicSlugs()).not.toContain(SLUG);
    expect((await loadHome(handle.db, new Date("2025-09-10T10:00:00+02:00"))).posts.map((p) => p.slug)).not.toContain(
      SLUG,
    );
    expect(await sitemapPaths(handle.db)).not.toContain(`/blog/${SLUG}`);
    expect((await call(handle, postRoute.loader, get(`/blog/${SLUG}`), { slug: SLUG })).status).toBe(404);
    const like = await call(
      handle,
      postRoute.action,
      post(`/blog/${SLUG}`, { intent: "like", sessionId: "session-12345678" }),
      { slug: SLUG },
    );
    expect(like.status).toBe(404);
    // The owner still sees and edits it.
    expect(
      (await call(handle, blogEditRoute.loader, get(`/admin/blog/${id}`, cookie), { id: String(id) })).body.published,
    ).toBe(false);
  });

  it("publish: back on /blog and at its address, dated today", async () => {
    const { id } = (await postRow())!;
    const answer = await call(handle, blogEditRoute.action, post(`/admin/blog/${id}`, { intent: "publish" }, cookie), {
      id: String(id),
    });
    expect(toastOf(answer)?.title).toBe("Post published");
    expect(await postRow()).toMatchObject({ published: true, publishedOn: "2025-09-10" });
    expect(await publicSlugs()).toContain(SLUG);
    expect((await call(handle, postRoute.loader, get(`/blog/${SLUG}`), { slug: SLUG })).status).toBe(200);
    expect(await sitemapPaths(handle.db)).toContain(`/blog/${SLUG}`);
  });

  it("delete: the post is gone, with an audit entry; a second delete is a 404", async () => {
    const { id } = (await postRow("building-a-capsule-wardrobe"))!;
    const answer = await call(handle, blogEditRoute.action, post(`/admin/blog/${id}`, { intent: "delete" }, cookie), {
      id: String(id),
    });
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe("/admin/blog");
    expect(await postRow("building-a-capsule-wardrobe")).toBeUndefined();
    expect(await lastAudit()).toMatchObject({ action: "post.delete", entityId: String(id) });
    const again = await call(handle, blogEditRoute.action, post(`/admin/blog/${id}`, { intent: "delete" }, cookie), {
      id: String(id),
    });
    expect(again.status).toBe(404);
    expect(
      (
        await call(handle, postRoute.loader, get("/blog/building-a-capsule-wardrobe"), {
          slug: "building-a-capsule-wardrobe",
        })
      ).status,
    ).toBe(404);
  });
});

describe("writing a post in the admin", () => {
  it("a new draft is stored with a slug from its title and is not public", async () => {
    const answer = await call(handle, blogEditRoute.action, multipart("/admin/blog/new", editFields(), cookie));
    expect(answer.status).toBe(302);
    expect(toastOf(answer)?.title).toBe("Draft saved");
    const row = await postRow("mending-a-love-letter");
    expect(row).toMatchObject({
      published: false,
      author: "Honey Bee",
      category: "Care",
      content: "A **stitch** in time.",
      image: null,
    });
    expect(answer.headers.get("location")).toBe(`/admin/blog/${row!.id}`);
    expect(await publicSlugs()).not.toContain("mending-a-love-letter");
  });

  it("an edit keeps the slug and stores the cover photo; Publish from the new form publishes at once", async () => {
    const { id } = (await postRow("mending-a-love-letter"))!;
    const fields = [
      ...editFields({ title: "Mending, renamed" }),
      ["photoSrc", "/images/blog/upcycling.svg"],
      ["photoAlt", "Hands mending a denim jacket"],
    ] as [string, string][];
    const answer = await call(handle, blogEditRoute.action, multipart(`/admin/blog/${id}`, fields, cookie), {
      id: String(id),
    });
    expect(answer.status).toBe(302);
    expect(await postRow("mending-a-love-letter")).toMatchObject({
      title: "Mending, renamed",
      image: "/images/blog/upcycling.svg",
      imageAlt: "Hands mending a denim jacket",
    });
    expect(await lastAudit()).toMatchObject({
      action: "post.update",
      after: { title: "Mending, renamed", image: "/images/blog/upcycling.svg" },
    });

    const published = await call(
      handle,
      blogEditRoute.action,
      multipart("/admin/blog/new", editFields({ intent: "save-publish", title: "Straight out" }), cookie),
    );
    expect(toastOf(published)?.title).toBe("Post published");
    expect(await publicSlugs()).toContain("straight-out");
  });

  it.each([
    ["title", ""],
    ["title", "Two\nlines"],
    ["excerpt", "  "],
    ["content", "nul \u0000 byte"],
    ["author", "a".repeat(101)],
  ])("refuses a bad %s with a field message and changes nothing", async (field, value) => {
    const { id } = (await postRow("mending-a-love-letter"))!;
    const before = await handle.db.select().from(blogPosts).orderBy(blogPosts.id);
    const answer = await call(
      handle,
      blogEditRoute.action,
      multipart(`/admin/blog/${id}`, editFields({ [field]: value }), cookie),
      { id: String(id) },
    );
    expect(answer.status).toBe(400);
    expect((answer.body.fieldErrors as Record<string, string>)[field]).toBeTruthy();
    expect(await handle.db.select().from(blogPosts).orderBy(blogPosts.id)).toEqual(before);
  });

  it("refuses two cover photos and a photo address that is not ours", async () => {
    const { id } = (await postRow("mending-a-love-letter"))!;
    const before = await postRow("mending-a-love-letter");
    for (const photos of [
      [
        ["photoSrc", "/images/blog/upcycling.svg"],
        ["photoAlt", "One"],
        ["photoSrc", "/images/blog/capsule.svg"],
        ["photoAlt", "Two"],
      ],
      [
        ["photoSrc", "https://evil.example/x.png"],
        ["photoAlt", "Elsewhere"],
      ],
    ] as [string, string][][]) {
      const answer = await call(
        handle,
        blogEditRoute.action,
        multipart(`/admin/blog/${id}`, [...editFields(), ...photos], cookie),
        { id: String(id) },
      );
      expect(answer.status).toBe(400);
      expect((answer.body.fieldErrors as Record<string, string>).photos).toBeTruthy();
    }
    expect(await postRow("mending-a-love-letter")).toEqual(before);
  });

  it("an unknown or malformed post id is a 404", async () => {
    for (const id of ["999999", "0", "abc", "1e3"]) {
      expect((await call(handle, blogEditRoute.loader, get(`/admin/blog/${id}`, cookie), { id })).status).toBe(404);
      expect(
        (await call(handle, blogEditRoute.action, post(`/admin/blog/${id}`, { intent: "publish" }, cookie), { id }))
          .status,
      ).toBe(404);
    }
  });

  it("/blog's New Post dialog still publishes", async () => {
    const answer = await call(
      handle,
      blogRoute.action,
      post("/blog", { intent: "publish", title: "From the dialog", excerpt: "E", content: "C" }, cookie),
    );
    expect(answer.body).toMatchObject({ ok: true, slug: "from-the-dialog" });
    expect(await publicSlugs()).toContain("from-the-dialog");
  });
});
