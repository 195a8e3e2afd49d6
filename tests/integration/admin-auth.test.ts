import { clientAddressKey } from "~/lib/client-address.server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  attemptAdminLogin,
  LOGIN_MAX_FAILURES,
  LOGIN_MAX_FAILURES_PER_IP,
  loginClientKeys,
} from "~/admin/login.server";
import { ensureAdminPassword } from "~/admin/password.server";
import { ADMIN_SESSION_HOURS, createAdminSession, isAdminRequest } from "~/admin/session.server";
import type { DatabaseHandle } from "~/db/client.server";
import { adminSessions, contactSubmissions, loginAttempts, orders } from "~/db/schema";
import { fixedClock } from "~/lib/clock";
import * as loginRoute from "~/routes/admin-login";
import * as blogRoute from "~/routes/blog";
import { throughMiddleware } from "../support/route-middleware";
import { createTestDatabase, testContext } from "../support/test-db";
import { signedInOwner } from "../support/owner";
import { routeAnswer } from "../support/route-answer";

// The admin's routes as React Router calls them: their layouts' middleware checks the session (decision 110).
const adminRoute = { loader: throughMiddleware("routes/admin/dashboard.tsx", "loader") };
const layoutRoute = { loader: throughMiddleware("routes/admin/layout.tsx", "loader") };
const exportRoute = { loader: throughMiddleware("routes/admin-export.ts", "loader") };
const logoutRoute = { action: throughMiddleware("routes/admin-logout.ts", "action") };

const PASSWORD = "test-admin-password";
const BASE = "http://localhost:3000";
let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await createTestDatabase();
  await ensureAdminPassword(handle.db, { adminPassword: PASSWORD, isProduction: false });
  await handle.db.insert(contactSubmissions).values({
    firstName: "Lee",
    lastName: "K",
    email: "leak@example.test",
    subject: "Secret subject",
    message: "Must not leak",
  });
});
afterAll(() => handle?.close());

/** Runs a loader or action and returns what the client would get, thrown or returned. */
const run = (fn: (args: never) => unknown, request: Request, context = testContext(handle), params = {}) =>
  routeAnswer(() => fn({ request, context, params } as never));

const post = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  new Request(`${BASE}${path}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: BASE, ...headers },
  });
const get = (path: string, headers: Record<string, string> = {}) => new Request(`${BASE}${path}`, { headers });

describe("admin sign-in", () => {
  it("signs in with the right password: session cookie, flash, redirect to /admin, at least 500 ms", async () => {
    const started = Date.now();
    const result = await run(
      loginRoute.action,
      post("/admin/login", { password: PASSWORD }),
      testContext(handle, { clientIp: "198.51.100.1" }),
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    expect(result.status).toBe(302);
    expect(result.headers.get("location")).toBe("/admin");
    const cookies = result.headers.get("set-cookie") ?? "";
    expect(cookies).toMatch(/admin_session=[A-Za-z0-9_-]{40,};/);
    expect(cookies).toMatch(/HttpOnly/);
    expect(cookies).toMatch(/SameSite=Lax/);
    const flash = cookies.match(/admin_toast=[^;]+/)![0];

    const sessionCookie = cookies.match(/admin_session=[^;]+/)![0];
    // Only the token's hash is stored.
    const rows = await handle.db.select().from(adminSessions);
    expect(rows.some((r) => sessionCookie.includes(r.idHash))).toBe(false);

    // The admin layout shows the sign-in's toast once, from the one flash cookie of every admin redirect.
    const page = await run(layoutRoute.loader, get("/admin", { Cookie: `${sessionCookie}; ${flash}` }));
    expect(page.status).toBe(200);
    expect((page.body as { toast: unknown }).toast).toMatchObject({
      title: "Login successful",
      description: "Welcome to the admin panel",
    });
    expect(page.headers.get("set-cookie")).toMatch(/admin_toast=;.*Max-Age=0/);
  });

  it("refuses a wrong password with the spec's toast, and also takes at least 500 ms", async () => {
    const started = Date.now();
    const result = await run(
      loginRoute.action,
      post("/admin/login", { password: "nope-nope" }),
      testContext(handle, { clientIp: "198.51.100.2" }),
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    expect(result.status).toBe(401);
    expect((result.body as { toast: unknown }).toast).toEqual({
      title: "Invalid password",
      description: "Please check your password and try again",
      variant: "destructive",
    });
    expect(result.headers.get("set-cookie")).toBeNull();
  });

  it("uses the __Host- prefixed Secure cookie in production", async () => {
    const cookie = await createAdminSession(testContext(handle, { config: { isProduction: true } }), null);
    expect(cookie).toMatch(/^__Host-admin_session=/);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/Path=\//);
  });

  it("refuses a sign-in POST from another origin", async () => {
    const result = await run(
      loginRoute.action,
      post("/admin/login", { password: PASSWORD }, { Origin: "https://evil.example" }),
    );
    expect(result.status).toBe(403);
    const fetchMeta = await run(
      loginRoute.action,
      new Request(`${BASE}/admin/login`, {
        method: "POST",
        body: new URLSearchParams({ password: PASSWORD }),
        headers: { "Sec-Fetch-Site": "cross-site" },
      }),
    );
    expect(fetchMeta.status).toBe(403);
  });
});

describe("failed sign-in limit", () => {
  it("locks a client out after 5 failures, across two instances sharing the database, without checking the password", async () => {
    const ip = "192.0.2.50";
    // Two app instances: separate contexts (and clocks) over the one database.
    const clockA = fixedClock("2025-09-10T10:00:00+02:00");
    const instanceA = testContext(handle, { clientIp: ip, clock: clockA });
    const instanceB = testContext(handle, { clientIp: ip, clock: fixedClock("2025-09-10T10:01:00+02:00") });
    const fast = { minDurationMs: 0 };
    for (let i = 0; i < LOGIN_MAX_FAILURES - 1; i++) {
      const context = i % 2 === 0 ? instanceA : instanceB;
      expect((await attemptAdminLogin(context, "wrong-password", "agent", fast)).status).toBe("invalid");
    }
    const fifth = await attemptAdminLogin(instanceB, "wrong-password", "agent", fast);
    expect(fifth.status).toBe("locked");
    // Even the right password is not checked while locked.
    const locked = await attemptAdminLogin(instanceA, PASSWORD, "agent", fast);
    expect(locked).toEqual({ status: "locked", retryAt: new Date("2025-09-10T08:15:00Z") });

    // The route's message says when to try again.
    const viaRoute = await run(
      loginRoute.action,
      post("/admin/login", { password: PASSWORD }, { "User-Agent": "agent" }),
      instanceA,
    );
    expect(viaRoute.status).toBe(429);
    expect((viaRoute.body as { toast: { description: string } }).toast.description).toBe(
      "Please try again in 15 minutes (after 10:15).",
    );

    // Another client (another browser on another address) is not affected.
    expect(
      (await attemptAdminLogin(testContext(handle, { clientIp: "192.0.2.51" }), PASSWORD, "agent", fast)).status,
    ).toBe("success");

    // After the window the client may try again.
    clockA.set("2025-09-10T10:15:01+02:00");
    expect((await attemptAdminLogin(instanceA, PASSWORD, "agent", fast)).status).toBe("success");
  });

  it("caps failures per address however the user agent changes", async () => {
    const ip = "192.0.2.60";
    const context = testContext(handle, { clientIp: ip });
    const rows = Array.from({ length: LOGIN_MAX_FAILURES_PER_IP }, (_, i) => ({
      clientKey: loginClientKeys(clientAddressKey(ip), `agent number ${i}`, context.config.sessionSecret).client,
      succeeded: false,
      attemptedAt: new Date("2025-09-10T07:59:00Z"),
    }));
    await handle.db.insert(loginAttempts).values(rows);
    expect((await attemptAdminLogin(context, PASSWORD, "a brand new agent", { minDurationMs: 0 })).status).toBe(
      "locked",
    );
  });
});

describe("admin sessions", () => {
  it("expire after 12 hours", async () => {
    const clock = fixedClock("2025-09-10T10:00:00+02:00");
    const context = testContext(handle, { clock });
    const cookie = await signedInOwner(handle, { clock });
    const request = get("/admin", { Cookie: cookie });
    expect(await isAdminRequest(request, context)).toBe(true);
    clock.set(new Date(Date.parse("2025-09-10T08:00:00Z") + ADMIN_SESSION_HOURS * 3600_000 - 1000));
    expect(await isAdminRequest(request, context)).toBe(true);
    clock.set(new Date(Date.parse("2025-09-10T08:00:00Z") + ADMIN_SESSION_HOURS * 3600_000 + 1000));
    expect(await isAdminRequest(request, context)).toBe(false);
    expect((await run(adminRoute.loader, request, context)).status).toBe(302);
  });

  it("logout deletes the session and says so on the login page", async () => {
    const cookie = await signedInOwner(handle);
    const result = await run(logoutRoute.action, post("/admin/logout", {}, { Cookie: cookie }));
    expect(result.status).toBe(302);
    expect(result.headers.get("location")).toBe("/admin/login");
    expect(result.headers.get("set-cookie")).toMatch(/admin_session=;.*Max-Age=0/);
    expect(await isAdminRequest(get("/admin", { Cookie: cookie }), testContext(handle))).toBe(false);
    const flash = result.headers.get("set-cookie")!.match(/admin_toast=[^;]+/)![0];
    const login = await run(loginRoute.loader, get("/admin/login", { Cookie: flash }));
    expect((login.body as { toast: unknown }).toast).toMatchObject({
      title: "Logged out",
      description: "You have been logged out successfully",
    });
  });

  it("a forged or unknown token is not a session", async () => {
    const context = testContext(handle);
    expect(await isAdminRequest(get("/admin", { Cookie: "admin_session=x".padEnd(60, "x") }), context)).toBe(false);
    expect(await isAdminRequest(get("/admin", { Cookie: "admin_session=" }), context)).toBe(false);
  });
});

describe("every admin loader, action and data endpoint refuses an anonymous request", () => {
  const pages: [string, (args: never) => unknown, Request][] = [
    ["GET /admin", adminRoute.loader, get("/admin")],
    ["GET /admin?period=7d", adminRoute.loader, get("/admin?period=7d")],
    ["POST /admin/logout", logoutRoute.action, post("/admin/logout", {})],
  ];
  it.each(pages)("%s redirects to /admin/login", async (_name, fn, request) => {
    const result = await run(fn, request);
    expect(result.status).toBe(302);
    expect(result.headers.get("location")).toBe("/admin/login");
  });

  const endpoints: [string, (args: never) => unknown, Request, Record<string, string>][] = [
    ["GET /admin/export/contacts", exportRoute.loader, get("/admin/export/contacts"), { kind: "contacts" }],
    ["GET /admin/export/orders", exportRoute.loader, get("/admin/export/orders"), { kind: "orders" }],
    ["GET /admin/export/events", exportRoute.loader, get("/admin/export/events"), { kind: "events" }],
    ["GET /admin/export/unknown", exportRoute.loader, get("/admin/export/unknown"), { kind: "unknown" }],
    [
      "POST /blog (publish)",
      blogRoute.action,
      post("/blog", { intent: "publish", title: "T", excerpt: "E", content: "C" }),
      {},
    ],
  ];
  it.each(endpoints)("%s answers 401 with no data", async (_name, fn, request, params) => {
    const result = await run(fn, request, testContext(handle), params);
    expect(result.status).toBe(401);
    expect(JSON.stringify(result.body ?? "")).not.toMatch(/leak@example|Secret subject/);
  });

  it("a signed-in admin gets the export, a cross-origin POST with the cookie is refused", async () => {
    const cookie = await signedInOwner(handle);
    const csv = await run(exportRoute.loader, get("/admin/export/contacts", { Cookie: cookie }), testContext(handle), {
      kind: "contacts",
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toMatch(/text\/csv/);
    expect(csv.body).toContain("leak@example.test");
    await handle.db.insert(orders).values({
      reference: "HB-CSV",
      orderType: "product",
      itemName: "=cmd|' /C calc'!A0",
      amountCents: 45000,
      customerFirstName: "Ann",
      customerLastName: "B",
      customerEmail: "ann@example.test",
      customerPhone: "+27 82 000 0000",
      customerAddress: "1 Long St",
      provider: "simulator",
      idempotencyKey: "csv-1",
    });
    const ordersCsv = await run(
      exportRoute.loader,
      get("/admin/export/orders", { Cookie: cookie }),
      testContext(handle),
      { kind: "orders" },
    );
    expect(ordersCsv.body).toContain(",'=cmd|' /C calc'!A0,");
    // The one orders export's columns (decision 110): Type, Amount, Refunded, Status.
    expect(ordersCsv.body).toContain(",product,450.00,0.00,pending,");
    const unknown = await run(
      exportRoute.loader,
      get("/admin/export/secrets", { Cookie: cookie }),
      testContext(handle),
      { kind: "secrets" },
    );
    expect(unknown.status).toBe(404);
    const crossSite = await run(
      logoutRoute.action,
      post("/admin/logout", {}, { Cookie: cookie, Origin: "https://evil.example" }),
    );
    expect(crossSite.status).toBe(403);
  });
});
