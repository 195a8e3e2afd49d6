import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAdminSession } from "~/admin/session.server";
import type { DatabaseHandle } from "~/db/client.server";
import { analyticsEvents, blogPosts, contactSubmissions, orders } from "~/db/schema";
import routes from "~/routes";
import { createTestDatabase, testContext } from "../setup/test-db";

/**
 * Reads app/routes.ts and proves that every admin loader, action and data endpoint refuses an
 * anonymous request: pages redirect to /admin/login, data endpoints answer 401, and no response
 * carries any of the stored data. A new admin route, a new handler on one, or a new route that
 * checks the admin session fails this file until it is listed below.
 */

const APP_DIR = fileURLToPath(new URL("../../app/", import.meta.url));
const BASE = "http://localhost:3000";
const SECRET = "zz-secret-marker";

type Handler = "loader" | "action";
type Expectation = "redirect-to-login" | "401" | "redirect-to-admin-without-data";
interface Case {
  name: string;
  handler: Handler;
  method: "GET" | "POST";
  url: string;
  params?: Record<string, string>;
  form?: Record<string, string>;
  expect: Expectation;
}

const EXPORT_KINDS = ["contacts", "orders", "events"];

/** Every route file whose loader or action is for the admin only, with the anonymous requests to try. */
const GUARDED: Record<string, Case[]> = {
  "routes/admin.tsx": [
    { name: "dashboard", handler: "loader", method: "GET", url: "/admin", expect: "redirect-to-login" },
    ...["today", "7d", "30d", "90d", "all", "nonsense"].map(
      (period): Case => ({
        name: `dashboard, period ${period}`,
        handler: "loader",
        method: "GET",
        url: `/admin?period=${period}`,
        expect: "redirect-to-login",
      }),
    ),
  ],
  "routes/admin-logout.ts": [
    { name: "logout", handler: "action", method: "POST", url: "/admin/logout", expect: "redirect-to-login" },
    // A GET never ends a session and shows nothing: it goes to /admin, which then asks for a sign-in.
    { name: "logout by GET", handler: "loader", method: "GET", url: "/admin/logout", expect: "redirect-to-admin-without-data" },
  ],
  "routes/admin-export.ts": [...EXPORT_KINDS, "unknown", "../secrets"].flatMap((kind): Case[] => [
    {
      name: `CSV export ${kind}`,
      handler: "loader",
      method: "GET",
      url: `/admin/export/${kind}`,
      params: { kind },
      expect: "401",
    },
    {
      name: `CSV export ${kind}, period all`,
      handler: "loader",
      method: "GET",
      url: `/admin/export/${kind}?period=all`,
      params: { kind },
      expect: "401",
    },
  ]),
  "routes/admin/photos.ts": [
    { name: "photo upload", handler: "action", method: "POST", url: "/admin/photos", form: { file: "x" }, expect: "401" },
  ],
  "routes/blog.tsx": [
    {
      name: "blog: publish a post",
      handler: "action",
      method: "POST",
      url: "/blog",
      form: { intent: "publish", title: "Anon post", excerpt: "E", content: "C" },
      expect: "401",
    },
    {
      name: "blog: any other intent",
      handler: "action",
      method: "POST",
      url: "/blog",
      form: { intent: "delete", slug: "the-art-of-upcycling" },
      expect: "401",
    },
  ],
};

/** Routes that look at the admin session without being admin-only, and why each is safe. */
const ADMIN_AWARE_PUBLIC: Record<string, string> = {
  "routes/admin-login.tsx": "the sign-in page itself (a signed-in admin is sent on to /admin)",
  "routes/api.analytics.ts": "drops a signed-in admin's own events; public otherwise (analytics-endpoint.test.ts)",
  "routes/blog.tsx": "its loader shows New Post to an admin only (checked below); its action is guarded above",
};

interface RouteEntry {
  file: string;
  path?: string;
  children?: RouteEntry[];
}
const flatten = (entries: RouteEntry[], prefix = ""): { file: string; path: string }[] =>
  entries.flatMap((r) => {
    const full = [prefix, r.path ?? ""].filter(Boolean).join("/");
    return [{ file: r.file, path: full }, ...flatten(r.children ?? [], full)];
  });

const allRoutes = flatten(routes as RouteEntry[]);
const isAdminPath = (p: string) => /^admin(\/|$)/.test(p) && p !== "admin/login";
const source = (file: string) => fs.readFileSync(path.join(APP_DIR, file), "utf8");
const checksAdmin = (file: string) => /\b(requireAdmin|isAdminRequest)\(/.test(source(file));
const exportedHandlers = (file: string): Handler[] =>
  (["loader", "action"] as const).filter((name) =>
    new RegExp(`export\\s+(async\\s+)?(function|const)\\s+${name}\\b`).test(source(file)),
  );

let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await createTestDatabase();
  await handle.db.insert(contactSubmissions).values({
    firstName: SECRET,
    lastName: "Contact",
    email: "zz-secret@example.test",
    subject: `${SECRET} subject`,
    message: `${SECRET} message`,
  });
  await handle.db.insert(orders).values({
    reference: "HB-GUARD",
    orderType: "product",
    itemName: `${SECRET} item`,
    amountCents: 45000,
    customerFirstName: SECRET,
    customerLastName: "Buyer",
    customerEmail: "zz-secret@example.test",
    customerPhone: "0820000000",
    customerAddress: "Cape Town",
    provider: "simulator",
    idempotencyKey: "guard-1",
  });
  await handle.db.insert(analyticsEvents).values({
    sessionId: "guard-session-1",
    eventType: "page_view",
    pagePath: `/${SECRET}`,
  });
});
afterAll(() => handle?.close());

interface Outcome {
  status: number;
  headers: Headers;
  body: string;
}

async function run(file: string, c: Case, headers: Record<string, string> = {}): Promise<Outcome> {
  const module = (await import(/* @vite-ignore */ path.join(APP_DIR, file))) as Record<Handler, (args: never) => unknown>;
  const request = new Request(`${BASE}${c.url}`, {
    method: c.method,
    headers: { Origin: BASE, "User-Agent": "guard-test", ...(c.form ? { "Content-Type": "application/x-www-form-urlencoded" } : {}), ...headers },
    body: c.method === "POST" ? new URLSearchParams(c.form ?? {}) : undefined,
  });
  const normalise = async (value: unknown): Promise<Outcome> => {
    if (value instanceof Response) return { status: value.status, headers: value.headers, body: await value.text() };
    const v = value as { type?: string; data?: unknown; init?: ResponseInit } | undefined;
    if (v?.type === "DataWithResponseInit") {
      return { status: v.init?.status ?? 200, headers: new Headers(v.init?.headers), body: JSON.stringify(v.data ?? null) };
    }
    return { status: 200, headers: new Headers(), body: JSON.stringify(value ?? null) };
  };
  try {
    return await normalise(await module[c.handler]({ request, context: testContext(handle), params: c.params ?? {} } as never));
  } catch (thrown) {
    return normalise(thrown);
  }
}

describe("the list of admin routes is complete", () => {
  it("every admin route in app/routes.ts is listed, with a case for each of its loaders and actions", () => {
    const adminFiles = allRoutes.filter((r) => isAdminPath(r.path)).map((r) => r.file);
    expect(adminFiles.length).toBeGreaterThan(0);
    for (const file of adminFiles) {
      expect(GUARDED[file], `${file} is an admin route without anonymous-request cases`).toBeDefined();
      for (const handler of exportedHandlers(file)) {
        expect(
          GUARDED[file].some((c) => c.handler === handler),
          `${file} exports a ${handler} that no case tries anonymously`,
        ).toBe(true);
      }
    }
  });

  it("every other route that checks the admin session is either guarded here or explained", () => {
    for (const { file, path: routePath } of allRoutes) {
      if (isAdminPath(routePath) || !checksAdmin(file)) continue;
      expect(
        GUARDED[file] ?? ADMIN_AWARE_PUBLIC[file],
        `${file} checks the admin session: list its admin-only handlers in GUARDED or explain it in ADMIN_AWARE_PUBLIC`,
      ).toBeDefined();
    }
    // The lists name real files only.
    for (const file of [...Object.keys(GUARDED), ...Object.keys(ADMIN_AWARE_PUBLIC)]) {
      expect(allRoutes.some((r) => r.file === file), `${file} is not in app/routes.ts`).toBe(true);
    }
  });
});

const cases = Object.entries(GUARDED).flatMap(([file, list]) => list.map((c) => [`${c.method} ${c.url} (${c.name})`, file, c] as const));

describe("an anonymous request is refused, with nothing leaked", () => {
  it.each(cases)("%s", async (_name, file, c) => {
    const result = await run(file, c);
    if (c.expect === "redirect-to-login") {
      expect(result.status).toBe(302);
      expect(result.headers.get("location")).toBe("/admin/login");
    } else if (c.expect === "redirect-to-admin-without-data") {
      expect(result.status).toBe(302);
      expect(result.headers.get("location")).toBe("/admin");
    } else {
      expect(result.status).toBe(401);
    }
    expect(result.body).not.toContain(SECRET);
    expect(result.body).not.toContain("zz-secret@example.test");
    expect(result.headers.get("set-cookie") ?? "").not.toMatch(/admin_session=[^;]/);
  });

  it.each(cases.filter(([, , c]) => c.method === "POST"))("%s from another origin with a live admin cookie is refused (403)", async (_name, file, c) => {
    const cookie = (await createAdminSession(testContext(handle), "guard-test")).split(";")[0];
    const result = await run(file, c, { Origin: "https://evil.example", Cookie: cookie });
    expect(result.status).toBe(403);
    expect(result.body).not.toContain(SECRET);
  });

  it("an expired or forged session cookie counts as anonymous", async () => {
    for (const cookie of ["admin_session=forged-forged-forged-forged-forged", "admin_session=", "__Host-admin_session=x"]) {
      const page = await run("routes/admin.tsx", GUARDED["routes/admin.tsx"][0], { Cookie: cookie });
      expect(page.status).toBe(302);
      const data = await run("routes/admin-export.ts", GUARDED["routes/admin-export.ts"][0], { Cookie: cookie });
      expect(data.status).toBe(401);
    }
  });

  it("nothing was stored by the refused publishes", async () => {
    const posts = await handle.db.select().from(blogPosts);
    expect(posts.some((p) => p.title === "Anon post")).toBe(false);
  });

  it("the blog page does not offer New Post to a visitor, even when asked for it", async () => {
    const list = await run("routes/blog.tsx", { name: "blog", handler: "loader", method: "GET", url: "/blog?new=1", expect: "401" });
    expect(list.status).toBe(200);
    expect(JSON.parse(list.body)).toMatchObject({ isAdmin: false, newPostOpen: false });
  });

  it("the same cases pass for a signed-in admin (so the refusals above are about the session)", async () => {
    const cookie = (await createAdminSession(testContext(handle), "guard-test")).split(";")[0];
    const dashboard = await run("routes/admin.tsx", GUARDED["routes/admin.tsx"][0], { Cookie: cookie });
    expect(dashboard.status).toBe(200);
    expect(dashboard.body).toContain(SECRET);
    for (const kind of EXPORT_KINDS) {
      const csv = await run("routes/admin-export.ts", { name: kind, handler: "loader", method: "GET", url: `/admin/export/${kind}`, params: { kind }, expect: "401" }, { Cookie: cookie });
      expect(csv.status).toBe(200);
      expect(csv.body).toContain(SECRET);
    }
  });
});
