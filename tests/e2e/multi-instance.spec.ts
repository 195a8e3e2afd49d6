import { expect, test } from "@playwright/test";
import { createPostgresDatabase, startInstance, type Instance } from "./support/instances";

// Two app processes on one real PostgreSQL, as behind a load balancer: whatever one instance knows
// (sessions, login failures) the other knows too, because it lives in the database.
const PG_URL = process.env.E2E_PG_URL;
test.skip(!PG_URL, "needs a PostgreSQL server: set E2E_PG_URL (CI does)");
test.describe.configure({ mode: "serial" });
test.setTimeout(120_000);

const PASSWORD = "two-instance-password";
const UA = "Mozilla/5.0 (X11; Linux x86_64) multi-instance-test";
let one: Instance;
let two: Instance;

test.beforeAll(async () => {
  const database = await createPostgresDatabase("multi");
  const env = {
    DATABASE_URL: database.url,
    ADMIN_PASSWORD: PASSWORD,
    // One secret for the cluster, as the README's deployment steps ask.
    SESSION_SECRET: "a-shared-session-secret-of-at-least-32-characters",
  };
  // The first start migrates and seeds; the second finds everything in place.
  one = await startInstance(env);
  two = await startInstance(env);
});

test.afterAll(async () => {
  await Promise.all([one?.stop(), two?.stop()]);
});

function signIn(instance: Instance, password: string, userAgent = UA) {
  return fetch(`${instance.base}/admin/login`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: instance.base, "Content-Type": "application/x-www-form-urlencoded", "User-Agent": userAgent },
    body: new URLSearchParams({ password }),
  });
}

const sessionCookie = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";", 1)[0])
    .find((pair) => pair.startsWith("admin_session="));

test("an admin session made on one instance works on the other, and logging out there ends it everywhere", async () => {
  const login = await signIn(one, PASSWORD);
  expect(login.status).toBe(302);
  const cookie = sessionCookie(login);
  expect(cookie).toBeTruthy();

  const dashboard = await fetch(`${two.base}/admin`, { redirect: "manual", headers: { Cookie: cookie!, "User-Agent": UA } });
  expect(dashboard.status).toBe(200);
  expect(await dashboard.text()).toContain("Total Visitors");

  const logout = await fetch(`${two.base}/admin/logout`, {
    method: "POST",
    redirect: "manual",
    headers: { Cookie: cookie!, Origin: two.base, "User-Agent": UA, "Content-Type": "application/x-www-form-urlencoded" },
    body: "",
  });
  expect(logout.status).toBe(302);
  const after = await fetch(`${one.base}/admin`, { redirect: "manual", headers: { Cookie: cookie!, "User-Agent": UA } });
  expect(after.status).toBe(302);
  expect(after.headers.get("location")).toMatch(/\/admin\/login$/);
});

test("the login limit counts failures made on both instances", async () => {
  const agent = `${UA} limit`;
  for (const instance of [one, two, one, two]) {
    expect((await signIn(instance, "wrong-password", agent)).status).toBe(401);
  }
  // The fifth failure, on either instance, reaches the limit and says so.
  expect((await signIn(one, "wrong-password", agent)).status).toBe(429);
  // Now even the right password is refused, on both instances.
  for (const instance of [two, one]) {
    const refused = await signIn(instance, PASSWORD, agent);
    expect(refused.status).toBe(429);
    expect(sessionCookie(refused)).toBeUndefined();
    expect(await refused.text()).toContain("Too many failed sign-ins");
  }
});
