import { eq } from "drizzle-orm";
import http from "node:http";
import type { ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { adminAuditLog, blogPosts, members } from "~/db/schema";
import { fixedClock } from "~/lib/clock";
import { createMemberSession } from "~/memberships/member-session.server";
import * as blogEditRoute from "~/routes/admin/blog-edit";
import * as blogRoute from "~/routes/blog";
import * as postRoute from "~/routes/blog-post";
import * as sitemapRoute from "~/routes/sitemap";
import { createRequestListener } from "../../server/app";
import { listenOnLoopback, testViteServer } from "../support/dev-server";
import { cookiePair } from "../support/account";
import { call, get, multipart } from "../support/admin-content";
import { signedInOwner } from "../support/owner";
import { routeAnswer } from "../support/route-answer";
import { createTestDatabase, testConfig, testContext } from "../support/test-db";

// Issue 42: a post for members (any active tier) or for chosen tiers is listed for everyone by its
// excerpt with a lock; its text reaches only a signed-in member of those tiers, and never the page
// cache, the sitemap or the JSON-LD.

const NOW = "2025-09-20T10:00:00+02:00";
const clock = fixedClock(NOW);
const SECRET = "The Glow Bee dye recipe: two onion skins to one litre";
let handle: DatabaseHandle;
let owner: string;
let vite: ViteDevServer;
let server: http.Server;
let base: string;
const cookies: Record<string, string> = {};

async function member(email: string, tierSlug: string, paidUntil: string) {
  const [row] = await handle.db
    .insert(members)
    .values({ email, name: email.split("@")[0]!, phone: "+27825550100", tierSlug, paidUntil, joinedAt: new Date(NOW) })
    .returning();
  return cookiePair(await createMemberSession(handle.db, testContext(handle, { clock }), row!.id));
}

async function insertPost(slug: string, audience: "public" | "members" | "tiers", audienceTiers: string[] = []) {
  await handle.db.insert(blogPosts).values({
    slug,
    title: `Post ${slug}`,
    excerpt: `Excerpt of ${slug}.`,
    content: `${SECRET} (${slug}).`,
    publishedOn: "2025-09-15",
    audience,
    audienceTiers,
  });
}

beforeAll(async () => {
  handle = await createTestDatabase();
  owner = await signedInOwner(handle, { clock });
  await insertPost("for-glow-bees", "tiers", ["glow-bee"]);
  await insertPost("for-members", "members");
  cookies.glow = await member("glow@example.test", "glow-bee", "2025-10-01");
  cookies.starter = await member("starter@example.test", "starter-bee", "2025-10-01");
  cookies.lapsedGlow = await member("lapsed@example.test", "glow-bee", "2025-09-01");
  vite = await testViteServer();
  server = http.createServer(
    createRequestListener({ config: testConfig(), database: handle, clock }, { vite, pageCache: true }),
  );
  base = await listenOnLoopback(server);
}, 120_000);

afterAll(async () => {
  server?.closeAllConnections();
  if (server) await new Promise((resolve) => server.close(resolve));
  await vite?.close();
  await handle?.close();
});

const context = () => testContext(handle, { clock });
/** The post's loader as the router calls it, for a visitor or a member's cookie. */
const asMember = (slug: string, cookie?: string) =>
  routeAnswer(() =>
    postRoute.loader({ request: get(`/blog/${slug}`, cookie), params: { slug }, context: context() } as never),
  );

describe("who reads a members-only post", () => {
  it("an anonymous visitor gets the excerpt, the lock and Join to read, and none of the text", async () => {
    const page = await asMember("for-glow-bees");
    expect(page.status).toBe(200);
    expect(JSON.stringify(page.body)).not.toContain(SECRET);
    expect(page.body).toMatchObject({
      post: { excerpt: "Excerpt of for-glow-bees.", html: null, membersOnly: true },
      lock: { label: "For Glow Bee members", joinHref: "/membership/glow-bee", signedIn: false },
    });
    expect(page.headers.get("cache-control")).toBeNull();
  });

  it("a Glow Bee member with access today reads it; the answer is private and never stored", async () => {
    const page = await asMember("for-glow-bees", cookies.glow);
    expect((page.body as { post: { html: string } }).post.html).toContain(SECRET);
    expect(page.body).toMatchObject({ lock: null, lockLabel: "For Glow Bee members" });
    expect(page.headers.get("cache-control")).toBe("private, no-store");
  });

  it("a member of another tier, or a Glow Bee member whose month has ended, sees Join to read", async () => {
    for (const cookie of [cookies.starter, cookies.lapsedGlow]) {
      const page = await asMember("for-glow-bees", cookie);
      expect(JSON.stringify(page.body)).not.toContain(SECRET);
      expect(page.body).toMatchObject({ post: { html: null }, lock: { signedIn: true } });
    }
  });

  it("a post for members opens to any member with access today, and to nobody else", async () => {
    expect(JSON.stringify((await asMember("for-members", cookies.starter)).body)).toContain(SECRET);
    expect(JSON.stringify((await asMember("for-members", cookies.lapsedGlow)).body)).not.toContain(SECRET);
    const anonymous = await asMember("for-members");
    expect(anonymous.body).toMatchObject({ lock: { label: "Members only", joinHref: "/#membership-heading" } });
  });

  it("/blog lists both for everyone with their excerpt and lock, and no preview of their text", async () => {
    const list = await call(handle, blogRoute.loader, get("/blog", cookies.glow));
    expect(JSON.stringify(list.body)).not.toContain(SECRET);
    const posts = (list.body as { posts: { slug: string; lock: string | null; preview: string | null }[] }).posts;
    expect(posts.find((p) => p.slug === "for-glow-bees")).toMatchObject({
      lock: "For Glow Bee members",
      preview: null,
    });
    expect(posts.find((p) => p.slug === "for-members")).toMatchObject({ lock: "Members only", preview: null });
    expect(posts.find((p) => p.slug === "the-art-of-upcycling")).toMatchObject({ lock: null });
  });

  it("the JSON-LD and the sitemap carry no members' text; the JSON-LD says the post is not free", async () => {
    const page = await asMember("for-glow-bees", cookies.glow);
    const meta = postRoute.meta({
      data: page.body,
      loaderData: page.body,
      matches: [],
      params: { slug: "for-glow-bees" },
      location: { pathname: "/blog/for-glow-bees" },
    } as never);
    const text = JSON.stringify(meta);
    expect(text).not.toContain(SECRET);
    expect(text).toContain('"isAccessibleForFree":false');
    const sitemap = await call(handle, sitemapRoute.loader, get("/sitemap.xml"));
    expect(sitemap.status).toBe(200);
    expect(String(sitemap.body)).not.toContain(SECRET);
  });
});

describe("the page cache", () => {
  it("stores the locked page for anonymous visitors, never a member's page, and never the text", async () => {
    for (const path of ["/blog/for-glow-bees", "/blog/for-members", "/blog", "/sitemap.xml", "/"]) {
      const first = await fetch(`${base}${path}`);
      const firstBody = await first.text();
      expect(first.status, path).toBe(200);
      expect(firstBody, path).not.toContain(SECRET);
    }
    const member = await fetch(`${base}/blog/for-glow-bees`, { headers: { Cookie: cookies.glow! } });
    expect(member.headers.get("cache-control")).toBe("private, no-store");
    expect(member.headers.get("x-page-cache")).toBeNull();
    const memberPage = await member.text();
    expect(memberPage).toContain(SECRET);
    expect(memberPage).not.toMatch(/"isAccessibleForFree":\s*true/);

    const again = await fetch(`${base}/blog/for-glow-bees`);
    expect(again.headers.get("x-page-cache")).toBe("HIT");
    const body = await again.text();
    expect(body).not.toContain(SECRET);
    expect(body).toContain("Join to read");
    expect(body).toContain("Excerpt of for-glow-bees.");
    // The page's data for client navigation is not cached either, and locked for a visitor.
    const dataRequest = await fetch(`${base}/blog/for-glow-bees.data`);
    expect(await dataRequest.text()).not.toContain(SECRET);
  }, 120_000);
});

describe("the owner chooses who reads a post", () => {
  const fields = (overrides: [string, string][]): [string, string][] => [
    ["intent", "save-publish"],
    ["title", "For our glowing members"],
    ["excerpt", "What we dyed this month."],
    ["author", ""],
    ["category", ""],
    ["content", SECRET],
    ...overrides,
  ];

  it("refuses chosen plans with none ticked, or a plan that does not exist, with a field message and no change", async () => {
    const before = await handle.db.select().from(blogPosts);
    const none = await call(
      handle,
      blogEditRoute.action,
      multipart("/admin/blog/new", fields([["audience", "tiers"]]), owner),
    );
    expect(none.status).toBe(400);
    expect((none.body as { fieldErrors: Record<string, string> }).fieldErrors.audienceTiers).toBe(
      "Tick at least one plan, or choose another audience.",
    );
    const unknown = await call(
      handle,
      blogEditRoute.action,
      multipart(
        "/admin/blog/new",
        fields([
          ["audience", "tiers"],
          ["audienceTiers", "no-such-plan"],
        ]),
        owner,
      ),
    );
    expect(unknown.status).toBe(400);
    expect((unknown.body as { fieldErrors: Record<string, string> }).fieldErrors.audienceTiers).toBe(
      "Choose plans from the list.",
    );
    const bad = await call(
      handle,
      blogEditRoute.action,
      multipart("/admin/blog/new", fields([["audience", "friends"]]), owner),
    );
    expect((bad.body as { fieldErrors: Record<string, string> }).fieldErrors.audience).toBe(
      "Choose who can read the post.",
    );
    expect(await handle.db.select().from(blogPosts)).toEqual(before);
  });

  it("saves a post for chosen plans, keeps the ticks only for that audience, and writes the audit line", async () => {
    const saved = await call(
      handle,
      blogEditRoute.action,
      multipart(
        "/admin/blog/new",
        fields([
          ["audience", "tiers"],
          ["audienceTiers", "glow-bee"],
          ["audienceTiers", "purpose-bee"],
        ]),
        owner,
      ),
    );
    expect(saved.status).toBe(302);
    const [row] = await handle.db.select().from(blogPosts).where(eq(blogPosts.title, "For our glowing members"));
    expect(row).toMatchObject({ audience: "tiers", audienceTiers: ["glow-bee", "purpose-bee"] });
    const edit = await call(
      handle,
      blogEditRoute.action,
      multipart(
        `/admin/blog/${row!.id}`,
        fields([
          ["intent", "save"],
          ["audience", "members"],
          ["audienceTiers", "glow-bee"],
        ]),
        owner,
      ),
      { id: String(row!.id) },
    );
    expect(edit.status).toBe(302);
    const [after] = await handle.db.select().from(blogPosts).where(eq(blogPosts.id, row!.id));
    expect(after).toMatchObject({ audience: "members", audienceTiers: [] });
    const audits = await handle.db
      .select()
      .from(adminAuditLog)
      .where(eq(adminAuditLog.entityId, String(row!.id)));
    expect(audits.map((a) => a.summary)).toContain("Changed audience, audienceTiers of For our glowing members");
  });
});

describe("the owner's preview of a members-only post", () => {
  it("the signed-in owner reads the text under a banner; her answer is private, and visitors still get none", async () => {
    const page = await asMember("for-glow-bees", owner);
    expect((page.body as { post: { html: string } }).post.html).toContain(SECRET);
    expect(page.body).toMatchObject({ preview: true, lock: null, lockLabel: "For Glow Bee members" });
    expect(page.headers.get("cache-control")).toBe("private, no-store");
    const anonymous = await asMember("for-glow-bees");
    expect(anonymous.body).toMatchObject({ preview: false, post: { html: null } });
    // A public post reads no session: the owner's page of it is everyone's, and no preview.
    expect((await asMember("the-art-of-upcycling", owner)).body).toMatchObject({ preview: false });
  });

  it("the owner's page is never cached: visitors after her get the locked page, from the cache", async () => {
    await insertPost("owner-preview-first", "tiers", ["glow-bee"]);
    const path = "/blog/owner-preview-first";
    const ownersPage = await fetch(`${base}${path}`, { headers: { Cookie: owner } });
    expect(ownersPage.headers.get("cache-control")).toBe("private, no-store");
    expect(ownersPage.headers.get("x-page-cache")).toBeNull();
    const html = await ownersPage.text();
    expect(html).toContain(SECRET);
    expect(html).toContain("Preview: members only");

    const first = await fetch(`${base}${path}`);
    expect(first.headers.get("x-page-cache")).not.toBe("HIT");
    const second = await fetch(`${base}${path}`);
    expect(second.headers.get("x-page-cache")).toBe("HIT");
    for (const body of [await first.text(), await second.text()]) {
      expect(body).not.toContain(SECRET);
      expect(body).not.toContain("Preview: members only");
      expect(body).toContain("Join to read");
    }
    const data = await fetch(`${base}${path}.data`);
    expect(await data.text()).not.toContain(SECRET);
  }, 120_000);
});
