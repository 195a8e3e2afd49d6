import { startInstance, type Instance } from "./support/instances";
import { expect, test } from "./support/test";

/**
 * Issue 23: `npm start` without NODE_ENV served the production build with a plain cookie and no
 * HSTS. The built app is production unless development is asked for (decision 079), and a local
 * run over http://127.0.0.1 still signs in: browsers accept Secure cookies from a loopback origin.
 */
const PASSWORD = "instance-admin-password";
let built: Instance;

test.beforeAll(async () => {
  built = await startInstance({ NODE_ENV: undefined, SITE_URL: undefined, SESSION_SECRET: undefined });
});

test.afterAll(async () => {
  await built?.stop();
});

test("without NODE_ENV the built app sends the __Host- Secure cookie and HSTS", async () => {
  const home = await fetch(`${built.base}/`);
  expect(home.headers.get("strict-transport-security")).toContain("max-age=63072000");
  const login = await fetch(`${built.base}/admin/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: built.base },
    body: new URLSearchParams({ password: PASSWORD }),
  });
  expect(login.status).toBe(302);
  const session = login.headers.getSetCookie().find((cookie) => cookie.includes("admin_session="));
  expect(session).toMatch(/^__Host-admin_session=[A-Za-z0-9_-]{40,};/);
  expect(session).toMatch(/; Secure/);
  expect(session).toMatch(/Path=\//);
  expect(session).not.toMatch(/Domain=/i);
});

test("a local run of the build over http still signs the owner in, in the browser", async ({ page }) => {
  await page.goto(`${built.base}/admin/login`);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: /sign in/i }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByText("Total Visitors")).toBeVisible();
  const cookies = await page.context().cookies(built.base);
  expect(cookies.find((cookie) => cookie.name === "__Host-admin_session")).toMatchObject({
    secure: true,
    httpOnly: true,
  });
});
