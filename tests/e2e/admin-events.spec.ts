import { type Page } from "@playwright/test";
import { expect, test, waitForHydration } from "./support/test";
import { axe } from "./support/axe";
import { startInstance, type Instance } from "./support/instances";

const PASSWORD = process.env.E2E_ADMIN_PASSWORD ?? "e2e-admin-password";
const INSTANCE_PASSWORD = "events-instance-admin-password";
const TITLE = "Two Seat Sewing Circle";
const EVENT_ID = "two-seat-sewing-circle";

async function signIn(page: Page, base = "", password = PASSWORD) {
  await page.goto(`${base}/admin/login`);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin$/);
}

/*
 * The journeys add events on an instance of their own (own data folder, same pinned clock), so the
 * events they create never change what /events and the home page show to the other specs.
 */
let app: Instance;
const url = (p: string) => `${app.base}${p}`;

async function buyOneSeat(page: Page, n: number) {
  await page.goto(url(`/tickets/${EVENT_ID}`));
  await page.getByRole("link", { name: /Buy Ticket\s*: Circle Seat/ }).click();
  await expect(page).toHaveURL(/\/checkout\?type=ticket&item=Two\+Seat\+Sewing\+Circle\+-\+Circle\+Seat/);
  // A page of a context of its own does not wait for hydration by itself, and the link clicked before
  // it may have loaded the checkout as a new document: the seat names' fields drawn for a form without
  // JavaScript go when it hydrates, moving the button a click may be on its way to.
  await waitForHydration(page);
  await expect(page.getByTestId("checkout-total")).toHaveText("R 120.00");
  await page.getByLabel("First Name").fill("Naledi");
  await page.getByLabel("Last Name").fill(`Buyer ${n}`);
  await page.getByLabel("Email").fill(`naledi${n}@example.com`);
  await page.getByLabel("Phone").fill("082 555 0123");
  await page.getByLabel("Address").fill("7 Jan Smuts Avenue\nJohannesburg");
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await expect(page).toHaveURL(/\/payments\/simulator\/[0-9a-f-]{36}$/);
  await page.getByRole("button", { name: "Pay R 120.00" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
}

test.describe("on an instance of its own", () => {
  test.describe.configure({ mode: "serial" });
  test.beforeAll(async () => {
    test.setTimeout(90_000);
    app = await startInstance({
      APP_NOW: "2025-09-10T10:00:00+02:00",
      ADMIN_PASSWORD: INSTANCE_PASSWORD,
      STOCK_HOLD_MINUTES: "15",
    });
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  test("the owner creates an event with one ticket option of capacity 2; a visitor buys both seats; it shows sold out", async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    await signIn(page, app.base, INSTANCE_PASSWORD);
    await page.getByRole("navigation").getByRole("link", { name: "Events" }).first().click();
    await expect(page).toHaveURL(/\/admin\/events$/);
    await page.getByRole("link", { name: "New event" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "New event" })).toBeVisible();
    for (const label of [
      "Title",
      "Starts",
      "Ends",
      "Location",
      "Focus",
      "Description",
      "What's included",
      "Ticket type",
      "Price (R)",
      "Capacity",
      "On sale from",
      "On sale until",
    ]) {
      await expect(page.getByLabel(label, { exact: true }).first()).toBeVisible();
    }
    await expect(page.getByRole("group", { name: "Photos" })).toBeVisible();

    // The form is multipart (its PhotoPicker uploads), which pages refuse until the media capability
    // lands; the same fields, without photos, go as an ordinary form post from the owner's session.
    const created = await page.request.post(url("/admin/events/new"), {
      headers: { Origin: app.base },
      form: {
        title: TITLE,
        starts: "2025-10-04T10:00",
        ends: "2025-10-04T12:30",
        location: "Honey Bee Studio, Johannesburg",
        focus: "Mending and sewing together",
        description: "A small circle: two seats, one afternoon of mending.",
        includes: "Thread and needles\nTea",
        "option.0.type": "Circle Seat",
        "option.0.price": "120",
        "option.0.capacity": "2",
      },
      maxRedirects: 0,
    });
    expect(created.status()).toBe(302);
    expect(created.headers()["location"]).toBe(`/admin/events/${EVENT_ID}`);

    await page.goto(url("/admin/events"));
    const card = page.getByRole("listitem").filter({ has: page.getByRole("link", { name: TITLE }) });
    await expect(card).toContainText("4 October 2025, 10:00 - 12:30");
    await expect(card).toContainText("Circle Seat: R 120.00");
    await expect(card).toContainText("0 sold · 0 held · 2 left");

    // A visitor in another browser finds it on /events at once and buys both seats.
    const visitorContext = await browser.newContext();
    const visitor = await visitorContext.newPage();
    try {
      await visitor.goto(url("/events"));
      const link = visitor.getByRole("link", {
        name: new RegExp(`Reserve Your Spot\\s*: ${TITLE}`),
      });
      await expect(link).toHaveAttribute("href", `/tickets/${EVENT_ID}`);
      await buyOneSeat(visitor, 1);
      await buyOneSeat(visitor, 2);

      // Sold out: the option says so and offers no checkout link (the page cache follows the sale).
      await expect
        .poll(async () => {
          await visitor.goto(url(`/tickets/${EVENT_ID}`));
          return visitor.getByRole("button", { name: "Sold Out" }).count();
        })
        .toBe(1);
      await expect(visitor.getByRole("button", { name: "Sold Out" })).toBeDisabled();
      await expect(visitor.getByRole("link", { name: /Buy Ticket/ })).toHaveCount(0);
    } finally {
      await visitorContext.close();
    }

    await page.goto(url("/admin/events"));
    await expect(card).toContainText("2 sold · 0 held · 0 left (sold out)");
  });

  test("the owner creates an event through the form in the browser", async ({ page }) => {
    await signIn(page, app.base, INSTANCE_PASSWORD);
    await page.goto(url("/admin/events/new"));
    await page.getByLabel("Title", { exact: true }).fill("Browser Form Workshop");
    await page.getByLabel("Starts", { exact: true }).fill("2025-11-01T10:00");
    await page.getByLabel("Ends", { exact: true }).fill("2025-11-01T13:00");
    await page.getByLabel("Location", { exact: true }).fill("Honey Bee Studio, Johannesburg");
    await page.getByLabel("Focus", { exact: true }).fill("Upcycling");
    await page.getByLabel("Description", { exact: true }).fill("Made through the form.");
    await page.getByLabel("Ticket type", { exact: true }).fill("Seat");
    await page.getByLabel("Price (R)", { exact: true }).fill("80");
    await page.getByLabel("Capacity", { exact: true }).fill("2");
    await page.getByRole("button", { name: "Add event" }).click();
    await expect(page).toHaveURL(/\/admin\/events\/browser-form-workshop$/);
    await expect(page.getByText("Event added")).toBeVisible();
    await page.goto(url("/events"));
    await expect(page.getByRole("heading", { name: "Browser Form Workshop" })).toBeVisible();
  });
});

for (const width of [390, 1280]) {
  test(`axe finds nothing and nothing scrolls sideways on the events admin at ${width}px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await signIn(page);
    for (const path of [
      "/admin/events",
      "/admin/events/new",
      "/admin/events/sip-style",
      "/admin/events/demo-workshop-try-a-ticket-purchase",
    ]) {
      await page.goto(path);
      const results = await (await axe(page)).analyze();
      expect(results.violations, path).toEqual([]);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(0);
    }
    // The demo workshop's public pages carry its Demo badge and stay accessible.
    await page.goto("/tickets/demo-workshop-try-a-ticket-purchase");
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Demo");
    expect((await (await axe(page)).analyze()).violations).toEqual([]);
  });
}
