import { randomBytes, scryptSync } from "node:crypto";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attemptAdminLogin } from "~/admin/login.server";
import { ADMIN_HASH_KEY } from "~/admin/password.server";
import type { DatabaseHandle } from "~/db/client.server";
import { appSettings, blogPosts, loginAttempts } from "~/db/schema";
import * as blogRoute from "~/routes/blog";
import * as postRoute from "~/routes/blog-post";
import { countRows, hostileStrings, RUNS } from "../support/generated";
import { createTestDatabase, testContext } from "../support/test-db";
import { signedInOwner } from "../support/owner";
import { routeAnswer } from "../support/route-answer";

// Generated input for the owner's side and the blog: admin sign-in, publishing a post, views and likes.
// Never a server error; an invalid input stores nothing; a valid one stores exactly what was sent.
const BASE = "http://localhost:3000";

let handle: DatabaseHandle;
let adminCookie: string;
beforeAll(async () => {
  handle = await createTestDatabase();
  adminCookie = await signedInOwner(handle);
});
afterAll(() => handle?.close());

const nasty = hostileStrings({ hugeUpTo: 60_000 });

// A thrown Response or data() is an answer; anything else is the server error this looks for.
const run = (fn: (args: never) => unknown, request: Request, params: Record<string, string> = {}, clientIp?: string) =>
  routeAnswer(() => fn({ request, params, context: testContext(handle, { clientIp }) } as never));

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

const countPosts = () => countRows(handle, blogPosts);

describe("blog publishing, generated input from a signed-in admin", () => {
  const FIELDS = ["intent", "title", "excerpt", "author", "category", "content"] as const;
  const anyPost = fc
    .dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ maxLength: 8 })), nasty, { maxKeys: 8 })
    .map((fields) => ({ intent: "publish", ...fields }));
  const validPost = fc.record({
    intent: fc.constant("publish"),
    title: fc.string({ minLength: 1, maxLength: 150, unit: "grapheme" }).filter((s) => s.trim().length > 0),
    excerpt: fc.string({ minLength: 1, maxLength: 300 }).filter((s) => s.trim().length > 0),
    author: fc.option(fc.string({ maxLength: 80 }), { nil: undefined }),
    category: fc.option(fc.string({ maxLength: 50 }), { nil: undefined }),
    content: fc.string({ minLength: 1, maxLength: 3_000, unit: "grapheme" }).filter((s) => s.trim().length > 0),
  });

  it(`never fails, and stores a post only when it says so (${RUNS} generated inputs)`, async () => {
    await fc.assert(
      fc.asyncProperty(anyPost, async (fields) => {
        const before = await countPosts();
        const result = await run(blogRoute.action, form("/blog", fields as Record<string, string>, adminCookie));
        expect(result.status).toBeLessThan(500);
        expect(await countPosts()).toBe(before + (result.body.ok ? 1 : 0));
      }),
      { numRuns: RUNS },
    );
  }, 300_000);

  it(`stores exactly what was sent for valid posts (${RUNS} generated inputs)`, async () => {
    await fc.assert(
      fc.asyncProperty(validPost, async (post) => {
        const fields = Object.fromEntries(Object.entries(post).filter(([, v]) => v !== undefined)) as Record<
          string,
          string
        >;
        const result = await run(blogRoute.action, form("/blog", fields, adminCookie));
        expect(result.body.ok).toBe(true);
        const [row] = await handle.db
          .select()
          .from(blogPosts)
          .where(eq(blogPosts.slug, String(result.body.slug)));
        expect(row).toMatchObject({
          title: post.title.trim(),
          excerpt: post.excerpt.trim(),
          content: post.content.trim(),
          author: post.author?.trim() || "Honey Bee",
          category: post.category?.trim() || "General",
          views: 0,
          likes: 0,
        });
      }),
      { numRuns: RUNS },
    );
  }, 300_000);
});

describe("views and likes, generated input", () => {
  const SLUG = "the-art-of-upcycling";
  const counts = async () => {
    const [row] = await handle.db
      .select({ views: blogPosts.views, likes: blogPosts.likes })
      .from(blogPosts)
      .where(eq(blogPosts.slug, SLUG));
    return row!;
  };
  const anyReaction = fc.dictionary(
    fc.oneof(fc.constantFrom("intent", "sessionId"), fc.string({ maxLength: 8 })),
    fc.oneof(nasty, fc.constantFrom("view", "like")),
    {
      maxKeys: 4,
    },
  );
  let fresh = 0;

  it(`never fails; a reaction counts at most once per visitor (${RUNS} generated inputs)`, async () => {
    await fc.assert(
      fc.asyncProperty(anyReaction, fc.boolean(), async (fields, repeat) => {
        // Half the time a new visitor (a reaction counts once per visitor: address and browser, decision
        // 108), so that valid reactions are tried as often as broken ones.
        const sent = repeat ? fields : { ...fields, sessionId: `fresh-session-${fresh}` };
        const visitor = repeat ? undefined : `2001:db8:${(fresh++).toString(16)}::1`;
        const before = await counts();
        const first = await run(postRoute.action, form(`/blog/${SLUG}`, sent), { slug: SLUG }, visitor);
        const again = await run(postRoute.action, form(`/blog/${SLUG}`, sent), { slug: SLUG }, visitor);
        expect(first.status).toBeLessThan(500);
        expect(again.status).toBeLessThan(500);
        const after = await counts();
        const valid = first.status === 200;
        const isNew = valid && (sent.sessionId ?? "").startsWith("fresh-session-");
        expect(after.views - before.views).toBeLessThanOrEqual(1);
        expect(after.likes - before.likes).toBeLessThanOrEqual(1);
        if (!valid) expect(after).toEqual(before);
        if (isNew) {
          expect(after.views - before.views).toBe(sent.intent === "view" ? 1 : 0);
          expect(after.likes - before.likes).toBe(sent.intent === "like" ? 1 : 0);
        }
      }),
      { numRuns: RUNS },
    );
  }, 300_000);
});

describe("admin sign-in, generated passwords", () => {
  const RIGHT = "the-right-admin-password";
  beforeAll(async () => {
    // The real hash costs ~100-300 ms per check; a cheap one (same scheme) keeps 1,000 checks quick.
    const salt = randomBytes(16);
    const key = scryptSync(RIGHT.normalize("NFKC"), salt, 32, { N: 1024, r: 8, p: 1 });
    const hash = ["scrypt", 1024, 8, 1, salt.toString("base64url"), key.toString("base64url")].join("$");
    await handle.db
      .insert(appSettings)
      .values({ key: ADMIN_HASH_KEY, value: hash })
      .onConflictDoUpdate({ target: appSettings.key, set: { value: hash } });
  });

  let client = 0;
  it(`never fails; only the right password signs in, and each failure is one recorded attempt (${RUNS} generated inputs)`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(nasty, fc.constant(RIGHT), fc.constant(` ${RIGHT}`)), async (password) => {
        const context = testContext(handle, { clientIp: `192.0.2.${client % 250}-${client++}` });
        const before = await handle.db.select().from(loginAttempts);
        const result = await attemptAdminLogin(context, password, "property-test", { minDurationMs: 0 });
        const after = await handle.db.select().from(loginAttempts);
        if (password === RIGHT) {
          expect(result.status).toBe("success");
        } else {
          expect(result.status).toBe("invalid");
          expect(after.length).toBe(before.length + 1);
        }
      }),
      { numRuns: RUNS },
    );
  }, 300_000);
});
