import { type Page, type Request } from "@playwright/test";
import { sendAnalyticsByFetch } from "./support/analytics";
import { expect, test } from "./support/test";
import { ADMIN_PASSWORD } from "./support/admin";

// Headless Chromium announces itself as "HeadlessChrome", which the endpoint rightly drops as a bot.
const VISITOR_UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

interface SentEvent {
  eventType: string;
  pagePath: string;
  itemName: string | null;
  sessionId: string;
  metadata: Record<string, unknown> | null;
}

/** Records every analytics event the page sends, by fetch instead of the beacons Playwright cannot see. */
async function recordEvents(page: Page) {
  await sendAnalyticsByFetch(page);
  const events: SentEvent[] = [];
  page.on("request", (request: Request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === "/api/analytics") {
      events.push(JSON.parse(request.postData() ?? "{}") as SentEvent);
    }
  });
  return events;
}

const ofType = (events: SentEvent[], type: string) => events.filter((e) => e.eventType === type);

test("a visitor's browser keeps one session id and reports page views on every route change and the spec's events", async ({
  browser,
}) => {
  const context = await browser.newContext({ userAgent: VISITOR_UA });
  const page = await context.newPage();
  const events = await recordEvents(page);

  await page.goto("/");
  await expect.poll(() => ofType(events, "page_view").map((e) => e.pagePath)).toEqual(["/"]);
  const sessionId = await page.evaluate(() => sessionStorage.getItem("analytics_session_id"));
  expect(sessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  // It asked for a beacon first.
  expect(await page.evaluate(() => (window as unknown as { __beaconCalls: string[] }).__beaconCalls)).toContain(
    "/api/analytics",
  );

  // Client-side route changes (no full page loads) each report a page view.
  const nav = page.getByRole("navigation", { name: "Main" });
  await nav.getByRole("link", { name: "Blog", exact: true }).click();
  await expect(page).toHaveURL(/\/blog$/);
  await nav.getByRole("link", { name: "About", exact: true }).click();
  await expect(page).toHaveURL(/\/about$/);
  await expect.poll(() => ofType(events, "page_view").map((e) => e.pagePath)).toEqual(["/", "/blog", "/about"]);

  // product_view on a product page, consultation_booking on ordering a service.
  await page.goto("/product/fashion-consultation");
  await expect.poll(() => ofType(events, "product_view").map((e) => e.itemName)).toEqual(["Fashion Consultation"]);
  await page.getByRole("link", { name: "Order Now" }).click();
  await expect(page).toHaveURL(/\/checkout\?/);
  await expect
    .poll(() => ofType(events, "consultation_booking").map((e) => e.itemName))
    .toEqual(["Fashion Consultation"]);

  // Ordering a product is not a consultation booking.
  await page.goto("/product/beaded-jewellery");
  await expect.poll(() => ofType(events, "product_view").length).toBe(2);
  await page.getByRole("link", { name: "Order Now" }).click();
  await expect(page).toHaveURL(/\/checkout\?/);

  // event_view on an event page.
  await page.goto("/tickets/sip-style");
  await expect.poll(() => ofType(events, "event_view").map((e) => e.itemName)).toEqual(["Sip & Style at Nanas"]);

  // contact_form_submit on sending the contact form.
  await page.goto("/contact");
  for (const [label, value] of [
    ["First Name", "Naledi"],
    ["Last Name", "Khumalo"],
    ["Email", "naledi@example.com"],
    ["Subject", "Tracking"],
    ["Message", "Just saying hello."],
  ]) {
    await page.getByLabel(label, { exact: true }).fill(value);
  }
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByText("Message sent successfully!")).toBeVisible();
  await expect.poll(() => ofType(events, "contact_form_submit").map((e) => e.metadata?.subject)).toEqual(["Tracking"]);

  expect(ofType(events, "consultation_booking")).toHaveLength(1);
  // One session id for the whole visit, the same one sessionStorage holds.
  expect(new Set(events.map((e) => e.sessionId))).toEqual(new Set([sessionId]));
  await context.close();
});

test("a new tab is a new analytics session", async ({ browser }) => {
  const context = await browser.newContext({ userAgent: VISITOR_UA });
  const first = await context.newPage();
  const sessionIdOf = async (page: typeof first) => {
    await expect.poll(() => page.evaluate(() => sessionStorage.getItem("analytics_session_id"))).toBeTruthy();
    return page.evaluate(() => sessionStorage.getItem("analytics_session_id"));
  };
  await first.goto("/about");
  const a = await sessionIdOf(first);
  // Route changes in the same tab keep it.
  await first.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Events", exact: true }).click();
  await expect(first).toHaveURL(/\/events$/);
  expect(await sessionIdOf(first)).toBe(a);
  const second = await context.newPage();
  await second.goto("/about");
  expect(await sessionIdOf(second)).not.toBe(a);
  await context.close();
});

test("the admin's own visits are not counted", async ({ browser }) => {
  const context = await browser.newContext({ userAgent: VISITOR_UA });
  const page = await context.newPage();
  const events = await recordEvents(page);
  await page.goto("/admin/login");
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  const pageViews = async () =>
    Number(((await page.getByTestId("counter-page-views").textContent()) ?? "").replace(/\D/g, ""));
  const before = await pageViews();

  for (const path of ["/about", "/events"]) {
    // The browser does report the visit (it cannot know who is signed in: the cookie is HttpOnly) ...
    const answered = page.waitForResponse(
      (r) => r.url().endsWith("/api/analytics") && (r.request().postData() ?? "").includes(`"pagePath":"${path}"`),
    );
    await page.goto(path);
    expect((await answered).status()).toBe(204);
  }
  expect(ofType(events, "page_view").map((e) => e.pagePath)).toEqual(expect.arrayContaining(["/about", "/events"]));
  // ... and the server dropped it.
  await page.goto("/admin");
  expect(await pageViews()).toBe(before);
  await context.close();
});
