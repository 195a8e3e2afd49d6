import { type Browser, type Page } from "@playwright/test";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { HtmlValidate, type Message } from "html-validate";
import routes from "../../app/routes";
import { publicRouteUrls } from "../../bench/lib/public-routes";
import { startInstance, tempDataDir, type Instance } from "./support/instances";
import { expect, test } from "./support/test";

/*
 * Every public route (bench/lib/public-routes.ts) and every admin page, as the server sends them,
 * through html-validate's standard preset: markup a validator from outside would fault (an ARIA
 * attribute an element may not carry, a duplicate id, a form control without a name) fails here first.
 * On an instance of its own: it buys a membership, so the owner's order and member pages have one.
 */
test.describe.configure({ mode: "serial" });
test.setTimeout(180_000);

const ADMIN_PASSWORD = "html-validate-admin-password";

const validator = new HtmlValidate({
  extends: ["html-validate:standard"],
});

let app: Instance;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  app = await startInstance({ DATA_DIR: tempDataDir(), APP_NOW: "2025-09-10T10:00:00+02:00", ADMIN_PASSWORD });
});
test.afterAll(async () => {
  await app?.stop();
});

async function faults(page: Page, path: string): Promise<string[]> {
  const response = await page.request.get(`${app.base}${path}`);
  expect(`${response.status()} ${response.headers()["content-type"]}`, path).toMatch(/^[24]\d\d text\/html/);
  const report = await validator.validateString(await response.text());
  return report.results.flatMap((result) =>
    result.messages.map(
      (m: Message) => `${path} ${m.line}:${m.column} ${m.ruleId}: ${m.message} (${m.selector ?? ""})`,
    ),
  );
}

/** Admin pages from app/routes.ts: the layout's children that draw a page, with a real id for each `:id`. */
function adminPaths(): string[] {
  const layout = routes.find((r: RouteConfigEntry) => r.path === "admin")!;
  return [
    "/admin/login",
    ...(layout.children ?? [])
      .filter((r) => r.file.endsWith(".tsx"))
      .map((r) => (r.index ? "/admin" : `/admin/${r.path}`)),
  ];
}

/** The first id the owner's list links to, e.g. /admin/products -> 12, /admin/events -> sip-style. */
async function firstId(page: Page, list: string): Promise<string> {
  await page.goto(`${app.base}${list}`);
  const hrefs = await page
    .locator(`a[href^="${list}/"]`)
    .evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""));
  // A number, UUID or slug; "new" and "export" are pages of their own.
  const id = hrefs
    .map((href) => /^\/admin\/[a-z-]+\/([^/?]+)$/.exec(href)?.[1])
    .find((segment) => segment && !["new", "export"].includes(segment));
  expect(id, `a link to one of ${list} in ${JSON.stringify(hrefs)}`).toBeTruthy();
  return id!;
}

/** A draft newsletter (none is seeded), for its page's id. */
async function draftNewsletter(page: Page): Promise<string> {
  await page.goto(`${app.base}/admin/newsletters/new`);
  await page.getByLabel("Title", { exact: true }).fill("Valid HTML newsletter");
  await page.getByLabel("Text").fill("## News\n\nA paragraph.");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page).toHaveURL(/\/admin\/newsletters\/\d+$/);
  return page.url().split("/").pop()!;
}

async function buyMembership(browser: Browser) {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${app.base}/checkout?type=membership&item=glow-bee-journey&price=R450`);
  await page.getByLabel("First Name").fill("Naledi");
  await page.getByLabel("Last Name").fill("Sithole");
  await page.getByLabel("Email").fill("naledi.sithole@example.test");
  await page.getByLabel("Phone").fill("082 555 0177");
  await page.getByLabel("Address").fill("3 Juta Street\nBraamfontein");
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await page.getByRole("button", { name: "Pay R 450.00" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
  await page.context().close();
}

test("every public route is valid HTML", async ({ page }) => {
  const found: string[] = [];
  for (const path of publicRouteUrls()) found.push(...(await faults(page, path)));
  // Pages that only some visitors see: a sorted collection and a sorted blog.
  for (const path of ["/styled-collections?sort=newest", "/blog?sort=title"]) found.push(...(await faults(page, path)));
  expect(found).toEqual([]);
});

test("every admin page is valid HTML", async ({ page, browser }) => {
  await buyMembership(browser);
  const loginFaults = await faults(page, "/admin/login");
  await page.goto(`${app.base}/admin/login`);
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  const ids = {
    orders: await firstId(page, "/admin/orders"),
    members: await firstId(page, "/admin/members"),
    products: await firstId(page, "/admin/products"),
    events: await firstId(page, "/admin/events"),
    blog: await firstId(page, "/admin/blog"),
    newsletters: await draftNewsletter(page),
  };
  const found = [...loginFaults];
  for (const path of adminPaths()) {
    if (path === "/admin/login") continue;
    const real = path.replace(/^\/admin\/(\w+)\/:id/, (_, list: keyof typeof ids) => `/admin/${list}/${ids[list]}`);
    expect(real, `${path} has a sample id`).not.toContain(":");
    found.push(...(await faults(page, real)));
  }
  expect(found).toEqual([]);
});
