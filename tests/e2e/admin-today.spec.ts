import fs from "node:fs";
import type { Browser, Page } from "@playwright/test";
import { expectUsableAtPhoneAndLaptop } from "./support/admin";
import { startInstance, tempDataDir, type Instance } from "./support/instances";
import { expect, test, waitForHydration } from "./support/test";

/*
 * Issue 36 at 390 px, as the owner, with data made through the site only: a visitor pays for a
 * physical product, sends a message from /contact and buys a membership; the server is started again
 * four days before the membership is due. The dashboard opens on one order to post, one unanswered
 * message and one member due, each linking to its list showing that item; no admin page scrolls
 * sideways with long data in it; a toast is shown once.
 */
test.describe.configure({ mode: "serial" });
test.setTimeout(480_000);

const PASSWORD = "today-admin-password";
const LONG_FIRST = "Nomvulakazi-Thandekile";
const LONG_LAST = "Featherstonehaugh-Dlamini-Vanderbijlpark";
const LONG_EMAIL = "nomvulakazi.thandekile.featherstonehaugh@extraordinarily-long-domain-name.example.test";
const SUBJECT = "Alterations for a wedding dress, a tablecloth skirt and three matching headwraps";
const MEMBER_EMAIL = "member.with.a.very.long.address@honeybee-community-members.example.test";
const dataDir = tempDataDir();
let app: Instance | undefined;
const url = (p: string) => `${app!.base}${p}`;

const startAt = async (now: string) => {
  app = await startInstance({ DATA_DIR: dataDir, APP_NOW: now, ADMIN_PASSWORD: PASSWORD });
};

test.afterAll(async () => {
  await app?.stop();
});

async function buyerDetails(page: Page, email: string) {
  await page.getByLabel("First Name").fill(LONG_FIRST);
  await page.getByLabel("Last Name").fill(LONG_LAST);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Phone").fill("082 555 0142");
  await page.getByLabel("Address").fill("1234 Extraordinarily Long Street Name Extension\nVanderbijlpark 1900");
}

async function ownerAtPhone(browser: Browser): Promise<Page> {
  const owner = await (
    await browser.newContext({ baseURL: app!.base, viewport: { width: 390, height: 844 } })
  ).newPage();
  await owner.goto("/admin/login");
  await owner.getByLabel("Password").fill(PASSWORD);
  await owner.getByRole("button", { name: "Sign In" }).click();
  await expect(owner).toHaveURL(/\/admin$/);
  await waitForHydration(owner);
  return owner;
}

const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);
/** What sticks out past the right edge, for the failure message. */
const sticksOut = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll("body *")]
      .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
      .slice(-3)
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 60)} "${(el.textContent ?? "").slice(0, 40)}"`,
      )
      .join("; "),
  );
const expectNoSideways = async (page: Page, what: string) =>
  expect(await sideways(page), `${what}: ${await sticksOut(page)}`).toBeLessThanOrEqual(390);

test("a visitor pays for earrings, writes from /contact and joins; days later the owner's dashboard lists each", async ({
  page,
  browser,
}) => {
  await startAt("2025-09-10T10:00:00+02:00");
  await page.goto(url("/product/candy-earrings"));
  await page.getByRole("link", { name: "Order Now" }).click();
  await buyerDetails(page, LONG_EMAIL);
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
  const reference = (await page.getByTestId("order-reference").textContent())!.trim();

  await page.goto(url("/contact"));
  await page.getByLabel("First Name", { exact: true }).fill(LONG_FIRST);
  await page.getByLabel("Last Name", { exact: true }).fill(LONG_LAST);
  await page.getByLabel("Email", { exact: true }).fill(LONG_EMAIL);
  await page.getByLabel("Subject", { exact: true }).fill(SUBJECT);
  await page.getByLabel("Message", { exact: true }).fill("Could you take in the waist by two centimetres? ".repeat(8));
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByText("Message sent successfully!")).toBeVisible();

  await page.goto(url("/checkout?type=membership&item=style-starter"));
  await buyerDetails(page, MEMBER_EMAIL);
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await page.getByRole("button", { name: "Pay R 150.00" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
  await app!.stop();

  // Paid until 10 October: on 6 October the member is due within the week.
  await startAt("2025-10-06T09:00:00+02:00");
  const owner = await ownerAtPhone(browser);
  const todo = owner.getByRole("region", { name: "To do today" });
  await expect(todo.getByRole("link", { name: "1 product to post or hand over" })).toBeVisible();
  await expect(todo.getByRole("link", { name: "1 message not yet answered" })).toBeVisible();
  await expect(todo.getByRole("link", { name: "1 member due or lapsing within 7 days" })).toBeVisible();
  await expect(todo).toContainText(reference);
  await expectNoSideways(owner, "dashboard");
  fs.mkdirSync("test-results", { recursive: true });
  await owner.screenshot({ path: "test-results/admin-today-dashboard-390.png", fullPage: true });

  await todo.getByRole("link", { name: "1 product to post or hand over" }).click();
  await expect(owner).toHaveURL(/\/admin\/orders\?status=to-post$/);
  await expect(owner.getByLabel("Status")).toHaveValue("to-post");
  await expect(owner.getByText("1 order", { exact: true })).toBeVisible();
  await expect(owner.getByRole("link", { name: reference }).first()).toBeVisible();
  await expect(owner.getByText("To post or hand over").last()).toBeVisible();

  await owner.goto("/admin");
  await todo.getByRole("link", { name: "1 message not yet answered" }).click();
  await expect(owner).toHaveURL(/\/admin\/messages\?state=unanswered$/);
  await expect(owner.getByRole("heading", { level: 2, name: SUBJECT })).toBeVisible();

  await owner.goto("/admin");
  await todo.getByRole("link", { name: "1 member due or lapsing within 7 days" }).click();
  await expect(owner).toHaveURL(/\/admin\/members\?status=soon$/);
  await expect(owner.getByText("1 member", { exact: true })).toBeVisible();
  await expect(owner.getByRole("link", { name: `${LONG_FIRST} ${LONG_LAST}` }).first()).toBeVisible();

  // The renew link from the dashboard itself: the members admin's own action, then its toast once.
  await owner.goto("/admin");
  await todo.getByRole("button", { name: `Send renew link to ${LONG_FIRST} ${LONG_LAST}` }).click();
  await expect(owner.getByRole("status").filter({ hasText: "Renewal link sent" })).toBeVisible();
  // A client navigation through the menu, then another: the toast does not come back.
  await owner.getByText("Menu", { exact: true }).click();
  await owner.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Orders" }).click();
  await expect(owner).toHaveURL(/\/admin\/orders$/);
  // The address changes before the new page is drawn; with the page drawn, the toast is gone at once,
  // not after its own 5 seconds: the page it spoke of is gone, so is it.
  await expect(owner.getByRole("heading", { level: 1, name: "Orders" })).toBeVisible();
  expect(await owner.getByText("Renewal link sent").count()).toBe(0);
  await owner.getByRole("link", { name: reference }).first().click();
  await expect(owner.getByRole("heading", { level: 1 })).toContainText(reference);
  await expect(owner.getByText("Renewal link sent")).toHaveCount(0);
  await owner.goBack();
  await expect(owner).toHaveURL(/\/admin\/orders$/);
  await expect(owner.getByText("Renewal link sent")).toHaveCount(0);
  await owner.goto("/admin/messages");
  await expect(owner.getByText("Renewal link sent")).toHaveCount(0);

  // The order page in plain words, the provider's ids behind Details.
  await owner.goto("/admin/orders?status=to-post");
  await owner.getByRole("link", { name: reference }).first().click();
  await expect(owner.getByText("Paid by card (simulator: no money moved)")).toBeVisible();
  await expect(owner.getByText(/^Payment confirmed by the payment simulator at \d\d:\d\d on /)).toBeVisible();
  await expect(owner.getByText("Checkout id")).toBeHidden();
  await owner.locator("summary", { hasText: "Details" }).click();
  await expect(owner.getByText("Checkout id")).toBeVisible();
  await expectNoSideways(owner, "order page");
  await owner.screenshot({ path: "test-results/admin-today-order-390.png", fullPage: true });

  // Answering the message takes it off the dashboard; thirty changes fill the activity log.
  await owner.goto("/admin/messages?state=unanswered");
  await owner.getByRole("button", { name: /^Mark answered/ }).click();
  await expect(owner.getByRole("status").filter({ hasText: "Marked answered" })).toBeVisible();
  await expect(owner.getByText("No messages match.")).toBeVisible();
  await owner.goto("/admin");
  await expect(todo.getByRole("link", { name: /message/ })).toHaveCount(0);
  // Thirty more changes, through the same form's endpoint (the page's own button was pressed above).
  await owner.goto("/admin/messages");
  const messageId = await owner.locator('input[name="id"]').first().inputValue();
  for (let i = 0; i < 30; i++) {
    const response = await owner.request.post("/admin/messages", {
      form: { id: messageId, answered: i % 2 === 0 ? "no" : "yes" },
      headers: { Origin: app!.base },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(302);
  }
  await owner.goto("/admin/activity");
  await expect(owner.getByRole("listitem").filter({ hasText: "Marked answered" })).not.toHaveCount(0);
  await expectNoSideways(owner, "activity");
  await owner.screenshot({ path: "test-results/admin-today-activity-390.png", fullPage: true });
  await owner.context().close();
});

/** A draft newsletter with a long title (none is seeded), for its page's id. */
async function draftNewsletter(owner: Page): Promise<string> {
  await owner.goto("/admin/newsletters/new");
  await owner
    .getByLabel("Title", { exact: true })
    .fill("Nomvuselelo's upcycled Woodstock tablecloth skirts, indigo, saffron and ochre, back in the shop");
  await owner.getByLabel("Text").fill("## This month\n\nThree skirts, one of each.");
  await owner.getByRole("button", { name: "Save draft" }).click();
  await expect(owner).toHaveURL(/\/admin\/newsletters\/\d+$/);
  return owner.url().split("/").pop()!;
}

/** A discount code as long as the form allows, made through it: its id, for the sweep. */
async function longCode(owner: Page): Promise<string> {
  const code = "WOODSTOCKSKIRTSLAUNCHWEEKEND2026";
  await owner.goto("/admin/codes/new");
  await owner.getByLabel("Code", { exact: true }).fill(code);
  await owner.getByLabel("Percent off").fill("15");
  await owner.getByRole("button", { name: "Add code" }).click();
  await expect(owner).toHaveURL(/\/admin\/codes$/);
  return (await owner.getByRole("link", { name: code }).getAttribute("href"))!.split("/").pop()!;
}

/** Every admin page in app/routes.ts (CSV exports aside), with a real id where the path has one. */
function adminPages(ids: Record<string, string>): string[] {
  const source = fs.readFileSync("app/routes.ts", "utf8");
  const block = source.slice(
    source.indexOf("const admin = ["),
    source.indexOf("];", source.indexOf("const admin = [")),
  );
  const pages = ["/admin"];
  for (const [, path, file] of block.matchAll(/route\("([^"]+)", "([^"]+)"/g)) {
    if (!file!.endsWith(".tsx")) continue;
    pages.push(
      `/admin/${path!.replace(/:(\w+)/g, (_, name: string) => ids[`${path!.split("/")[0]}:${name}`] ?? `MISSING-${name}`)}`,
    );
  }
  return pages;
}

test("no admin page scrolls sideways at 390 px with long data in it, and axe finds nothing on the dashboard", async ({
  browser,
}) => {
  const owner = await ownerAtPhone(browser);
  await owner.goto("/admin/orders");
  const orderHref = (await owner.getByRole("link", { name: /^HB-/ }).first().getAttribute("href"))!;
  await owner.goto("/admin/members");
  const memberHref = (await owner
    .getByRole("link", { name: `${LONG_FIRST} ${LONG_LAST}` })
    .first()
    .getAttribute("href"))!;
  const ids = {
    "orders:id": orderHref.split("/").pop()!,
    "members:id": memberHref.split("/").pop()!,
    "products:id": "4",
    "events:id": "sip-style",
    "blog:id": "1",
    "newsletters:id": await draftNewsletter(owner),
    "codes:id": await longCode(owner),
  };
  const pages = adminPages(ids);
  expect(pages.filter((p) => p.includes("MISSING"))).toEqual([]);
  expect(pages.length).toBeGreaterThan(20);
  for (const path of pages) {
    await owner.goto(path);
    await expectNoSideways(owner, `${path} at 390 px`);
  }
  await expectUsableAtPhoneAndLaptop(owner, "/admin");

  // Installable: the manifest is linked from admin pages only and opens standalone at the dashboard.
  await owner.goto("/admin");
  await expect(owner.locator('link[rel="manifest"]')).toHaveAttribute("href", "/admin.webmanifest");
  const manifest = await owner.request.get("/admin.webmanifest");
  expect(manifest.status()).toBe(200);
  const body = (await manifest.json()) as {
    display: string;
    start_url: string;
    icons: { src: string; sizes: string; purpose: string }[];
  };
  expect([body.display, body.start_url]).toEqual(["standalone", "/admin"]);
  expect(body.icons.map((i) => `${i.sizes} ${i.purpose}`)).toEqual(["192x192 any", "512x512 any", "512x512 maskable"]);
  for (const icon of body.icons)
    expect((await owner.request.get(icon.src)).headers()["content-type"]).toBe("image/png");
  await owner.goto("/");
  await expect(owner.locator('link[rel="manifest"]')).toHaveCount(0);
  await owner.context().close();
});
