import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderMarkdown } from "~/blog/markdown.server";
import { contentPreview, slugify } from "~/blog/post-schema";
import type { DatabaseHandle } from "~/db/client.server";
import { blogPosts } from "~/db/schema";
import * as blogRoute from "~/routes/blog";
import * as postRoute from "~/routes/blog-post";
import { createTestDatabase, testContext } from "../support/test-db";
import { signedInOwner } from "../support/owner";
import { routeAnswer } from "../support/route-answer";

const BASE = "http://localhost:3000";
let handle: DatabaseHandle;
let adminCookie: string;

beforeAll(async () => {
  handle = await createTestDatabase();
  adminCookie = await signedInOwner(handle);
});
afterAll(() => handle?.close());

const run = (fn: (args: never) => unknown, request: Request, params: Record<string, string> = {}) =>
  routeAnswer(() => fn({ request, params, context: testContext(handle) } as never));
const form = (path: string, fields: Record<string, string>, cookie?: string) =>
  new Request(`${BASE}${path}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: BASE,
      ...(cookie ? { Cookie: cookie } : {}),
    },
  });
const newPost = {
  intent: "publish",
  title: "Mending Matters!",
  excerpt: "Why we mend.",
  content: "A **stitch** in time.",
};

type ListBody = {
  posts: { slug: string; title: string; preview: string; views: number; likes: number }[];
  isAdmin: boolean;
};

describe("blog publishing", () => {
  it("refuses a visitor (401) and stores nothing", async () => {
    const result = await run(blogRoute.action, form("/blog", newPost));
    expect(result.status).toBe(401);
    const rows = await handle.db.select().from(blogPosts);
    expect(rows.some((p) => p.title === newPost.title)).toBe(false);
  });

  it("refuses a cross-origin publish even with the admin cookie", async () => {
    const request = form("/blog", newPost, adminCookie);
    request.headers.set("Origin", "https://evil.example");
    expect((await run(blogRoute.action, request)).status).toBe(403);
  });

  it("stores an admin's post with defaults and a unique slug; the list shows it", async () => {
    const first = await run(blogRoute.action, form("/blog", newPost, adminCookie));
    expect(first.body).toMatchObject({ ok: true, slug: "mending-matters" });
    const second = await run(blogRoute.action, form("/blog", newPost, adminCookie));
    expect(second.body).toMatchObject({ ok: true, slug: "mending-matters-2" });
    const [row] = await handle.db
      .select()
      .from(blogPosts)
      .where((await import("drizzle-orm")).eq(blogPosts.slug, "mending-matters"));
    expect(row).toMatchObject({
      author: "Honey Bee",
      category: "General",
      views: 0,
      likes: 0,
      publishedOn: "2025-09-10",
    });

    const list = await run(blogRoute.loader, new Request(`${BASE}/blog`));
    expect((list.body as ListBody).posts.map((p) => p.slug)).toContain("mending-matters");
    expect((list.body as ListBody).isAdmin).toBe(false);
    const asAdmin = await run(blogRoute.loader, new Request(`${BASE}/blog`, { headers: { Cookie: adminCookie } }));
    expect((asAdmin.body as ListBody).isAdmin).toBe(true);
  });

  it("with a required field empty, nothing is stored and no message is given", async () => {
    const before = (await handle.db.select().from(blogPosts)).length;
    for (const missing of ["title", "excerpt", "content"]) {
      const result = await run(blogRoute.action, form("/blog", { ...newPost, [missing]: "  " }, adminCookie));
      expect(result.status).toBe(400);
      expect((result.body as { toast?: unknown }).toast).toBeUndefined();
    }
    expect((await handle.db.select().from(blogPosts)).length).toBe(before);
  });
});

describe("views, likes and sorting", () => {
  it("counts a view and a like once per visitor (address and browser), and the sorts use the counts", async () => {
    const slug = "building-a-capsule-wardrobe";
    const react = (intent: string, agent: string, sessionId = `session-${Math.random().toString(36).slice(2, 12)}`) => {
      const request = form(`/blog/${slug}`, { intent, sessionId });
      request.headers.set("User-Agent", agent);
      return run(postRoute.action, request, { slug });
    };
    await react("view", "browser A");
    await react("view", "browser A");
    await react("view", "browser B");
    const liked = await react("like", "browser A");
    await react("like", "browser A");
    expect(liked.body).toMatchObject({ ok: true, views: 2, likes: 1, liked: true });
    const again = await react("view", "browser A");
    expect(again.body).toMatchObject({ views: 2, likes: 1, liked: true });
    expect((await react("like", "browser A", "<bad>")).status).toBe(400);

    const sorted = async (sort: string) =>
      ((await run(blogRoute.loader, new Request(`${BASE}/blog?sort=${sort}`))).body as ListBody).posts;
    expect((await sorted("views"))[0].slug).toBe(slug);
    expect((await sorted("likes"))[0].slug).toBe(slug);
    const titles = (await sorted("title")).map((p) => p.title);
    expect(titles).toEqual([...titles].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    const byDate = await sorted("date");
    expect(byDate[0].slug).toMatch(/^mending-matters/);
    expect((await sorted("nonsense")).map((p) => p.slug)).toEqual(byDate.map((p) => p.slug));
  });

  it("an unknown slug is a 404 'Post not found', for the page and the action", async () => {
    for (const slug of ["no-such-post", "../etc", "A".repeat(300)]) {
      const page = await run(postRoute.loader, new Request(`${BASE}/blog/x`), { slug });
      expect(page.status).toBe(404);
      expect(page.body).toEqual({ message: "Post not found" });
      const act = await run(postRoute.action, form(`/blog/x`, { intent: "like", sessionId: "session-aaaaaaaa" }), {
        slug,
      });
      expect(act.status).toBe(404);
    }
  });
});

describe("content", () => {
  it("renders Markdown with any HTML inert and safe external links", () => {
    const html = renderMarkdown(
      '# Hi\n\n<script>alert("x")</script>\n\n<img src=x onerror="alert(1)">\n\n[click](javascript:alert(1)) and ' +
        "[shop](https://example.com)",
    );
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).toContain("&lt;script&gt;");
    expect(html).not.toMatch(/href="javascript:/i);
    expect(html).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer">shop</a>');
    // The page's h1 is the post title: content headings move one level down.
    expect(html).toContain("<h2>Hi</h2>");
    expect(renderMarkdown("## Sub\n\n###### Deep")).toBe("<h3>Sub</h3>\n<h6>Deep</h6>\n");
  });

  it("previews the first 300 characters with an ellipsis, and slugs titles", () => {
    expect(contentPreview("x".repeat(400))).toBe(`${"x".repeat(300)}...`);
    expect(slugify("  Crème brûlée: Tips & Tricks!! ")).toBe("creme-brulee-tips-tricks");
    expect(slugify("!!!")).toBe("post");
  });

  it("a post page carries the rendered post", async () => {
    const page = await run(postRoute.loader, new Request(`${BASE}/blog/the-art-of-upcycling`), {
      slug: "the-art-of-upcycling",
    });
    expect(page.status).toBe(200);
    expect((page.body as { post: { html: string } }).post.html).toContain("<p>Every garment has a story.");
  });
});
