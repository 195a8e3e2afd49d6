import { expect, test } from "./support/test";

/**
 * The running server, asked anonymously for every admin page, data URL and action (the document
 * URLs and the `.data` URLs client navigations use): nothing but a way to the sign-in page or a 401.
 * tests/integration/admin-routes-guard.test.ts proves the list complete against app/routes.ts.
 */

const MARKER = `guard-${Date.now()}`;

test.beforeAll(async ({ request, baseURL }) => {
  // Something private to leak: a contact message (the public form's normal, no-JavaScript POST).
  const response = await request.post("/contact", {
    headers: { Origin: baseURL! },
    form: { firstName: MARKER, lastName: "Guard", email: `${MARKER}@example.com`, subject: MARKER, message: MARKER },
    maxRedirects: 0,
  });
  expect(response.status()).toBeLessThan(500);
});

const GETS = [
  "/admin",
  "/admin?period=7d",
  "/admin.data",
  "/admin.data?period=all",
  "/admin/export/contacts",
  "/admin/export/orders",
  "/admin/export/events",
  "/admin/export/contacts?period=all",
  "/admin/export/nothing",
  "/admin/logout",
  "/admin/logout.data",
  "/admin/members",
  "/admin/members?q=example&status=active",
  "/admin/members.data",
  "/admin/members/1",
  "/admin/members/1.data",
  "/admin/members/export",
  "/admin/members/export?status=active",
];

for (const path of GETS) {
  test(`GET ${path} anonymously reveals nothing`, async ({ request }) => {
    const response = await request.get(path, { maxRedirects: 0 });
    const body = await response.text();
    expect(body).not.toContain(MARKER);
    expect(body).not.toContain("counters");
    if (path.startsWith("/admin/export/") || path.startsWith("/admin/members/export")) {
      expect(response.status()).toBe(401);
      expect(response.headers()["content-type"]).not.toMatch(/csv/);
    } else if (path.includes(".data")) {
      // Single-fetch redirect: 202 with the target in the stream, never the data.
      expect([202, 204, 302, 401]).toContain(response.status());
      if (response.status() === 202) expect(body).toMatch(/\/admin(\/login)?/);
    } else {
      expect(response.status()).toBe(302);
      expect(response.headers()["location"]).toMatch(/^\/admin(\/login)?$/);
    }
    expect(response.headers()["set-cookie"] ?? "").not.toMatch(/admin_session=[^;]/);
  });
}

test("POSTs that need the admin are refused anonymously, and from another origin", async ({ request, baseURL }) => {
  const logout = await request.post("/admin/logout", {
    headers: { Origin: baseURL! },
    form: { go: "1" },
    maxRedirects: 0,
  });
  expect(logout.status()).toBe(302);
  expect(logout.headers()["location"]).toBe("/admin/login");

  const publish = await request.post("/blog", {
    headers: { Origin: baseURL! },
    form: { intent: "publish", title: `${MARKER} anon`, excerpt: "E", content: "C" },
    maxRedirects: 0,
  });
  expect(publish.status()).toBe(401);
  const blog = await (await request.get("/blog")).text();
  expect(blog).not.toContain(`${MARKER} anon`);

  const crossSite = await request.post("/admin/login", {
    headers: { Origin: "https://evil.example" },
    form: { password: "anything" },
    maxRedirects: 0,
  });
  // Refused by React Router's own origin check (400) or ours (403); never a session.
  expect([400, 403]).toContain(crossSite.status());
  expect(crossSite.headers()["set-cookie"] ?? "").not.toMatch(/admin_session=[^;]/);
});
