import http from "node:http";
import type { ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { fixedClock } from "~/lib/clock";
import { createMemberSession } from "~/memberships/member-session.server";
import { isCacheablePage } from "../../server/cacheable-pages";
import { createRequestListener } from "../../server/app";
import { listenOnLoopback, testViteServer } from "../support/dev-server";
import { createTestDatabase, testConfig, testContext } from "../support/test-db";
import { cookiePair, memberWithPayment } from "../support/account";

// Issue 21: a member's pages are one person's data; neither the page cache nor any browser or CDN may keep them.

const clock = fixedClock("2025-09-20T10:00:00+02:00");
let handle: DatabaseHandle;
let vite: ViteDevServer;
let server: http.Server;
let base: string;
let cookie: string;

beforeAll(async () => {
  handle = await createTestDatabase();
  const { member } = await memberWithPayment(handle, {
    email: "nandi@example.test",
    name: "Nandi Zulu",
    reference: "HB-NANDI01",
  });
  cookie = cookiePair(await createMemberSession(handle.db, testContext(handle, { clock }), member.id));
  vite = await testViteServer();
  // The page cache is on, as in production.
  server = http.createServer(
    createRequestListener({ config: testConfig(), database: handle, clock }, { vite, pageCache: true }),
  );
  base = await listenOnLoopback(server);
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await vite?.close();
  await handle?.close();
});

const ACCOUNT_PAGES = [
  "/account",
  "/account.data",
  "/account/sign-in?token=abc",
  "/account/receipts/HB-NANDI01",
  "/account/renew?token=1.x",
  "/account/cancel",
  "/account/sign-out",
];

describe("/account is never stored", () => {
  it("is not a page the page cache may keep, even for a visitor without cookies", () => {
    for (const path of ACCOUNT_PAGES) expect(isCacheablePage("GET", path, {}), path).toBe(false);
    expect(isCacheablePage("GET", "/membership/style-starter", {})).toBe(true);
  });

  it("answers Cache-Control: private, no-store to visitors and members, pages, data requests and redirects alike", async () => {
    // The home page shows the page cache is on here: it answers anonymous visitors with a public, revalidated copy.
    const home = await fetch(`${base}/`);
    expect(home.headers.get("cache-control")).toBe("public, max-age=0, must-revalidate");
    for (const path of ACCOUNT_PAGES) {
      for (const headers of [{}, { Cookie: cookie }] as Record<string, string>[]) {
        const response = await fetch(`${base}${path}`, { headers, redirect: "manual" });
        await response.arrayBuffer();
        expect(response.status, path).toBeLessThan(500);
        expect(response.headers.get("cache-control"), `${path} ${JSON.stringify(headers)}`).toBe("private, no-store");
      }
    }
    const signedIn = await fetch(`${base}/account`, { headers: { Cookie: cookie } });
    expect(await signedIn.text()).toContain("Nandi Zulu");
  });

  it("a visitor after a member gets the sign-in form, never the member's page", async () => {
    await (await fetch(`${base}/account`, { headers: { Cookie: cookie } })).text();
    const visitor = await (await fetch(`${base}/account`)).text();
    expect(visitor).toContain("Email me a sign-in link");
    expect(visitor).not.toContain("Nandi");
  });

  it("answers a posted sign-in request with private, no-store too", async () => {
    const response = await fetch(`${base}/account`, {
      method: "POST",
      headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "request-link", email: "nobody@example.test" }),
    });
    expect(await response.text()).toContain("If nobody@example.test belongs to a member");
    expect(response.headers.get("cache-control")).toBe("private, no-store");
  });
});
