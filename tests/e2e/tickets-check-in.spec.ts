import { type Page } from "@playwright/test";
import ICAL from "ical.js";
import jsQR from "jsqr";
import { simpleParser } from "mailparser";
import { PNG } from "pngjs";
import { startSmtpSink } from "../fakes/smtp-sink";
import { expect, test } from "./support/test";
import { axe } from "./support/axe";
import { startInstance, tempDataDir, type Instance } from "./support/instances";

/*
 * A workshop seat bought through the simulator, its email read from an SMTP sink this spec starts
 * (the instance of its own gets SMTP_URL pointing at it: no test-only route in the app), then the
 * door: typed code admits once, and an offline admission syncs once when the network returns.
 */
test.describe.configure({ mode: "serial" });
test.setTimeout(120_000);

const PASSWORD = "tickets-admin-password";
let app: Instance;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
const url = (p: string) => `${app.base}${p}`;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  sink = await startSmtpSink();
  app = await startInstance({
    DATA_DIR: tempDataDir(),
    APP_NOW: "2025-09-10T10:00:00+02:00",
    OWNER_EMAIL: "owner@example.test",
    SMTP_URL: sink.url,
    ADMIN_PASSWORD: PASSWORD,
  });
});
test.afterAll(async () => {
  await app?.stop();
  await sink?.close();
});

async function buySeat(page: Page, first: string, email: string) {
  await page.goto(url("/workshop/tablecloth-skirt"));
  await expect(page.getByText("Saturday, 4 October 2025, 10:00 to 13:00")).toBeVisible();
  await page.getByRole("link", { name: /Join Monthly Workshop/ }).click();
  await page.getByLabel("First Name").fill(first);
  await page.getByLabel("Last Name").fill("Dube");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Phone").fill("082 555 0199");
  await page.getByLabel("Address").fill("5 Vilakazi Street\nSoweto");
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await expect(page).toHaveURL(/\/payments\/simulator\//);
  await page.getByRole("button", { name: "Pay R 250.00" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
}

/** The buyer's email as it arrived at SMTP, parsed; its QR decoded. */
async function ticketEmail(email: string) {
  await expect.poll(() => sink.messages.some((m) => m.to[0] === email), { timeout: 30_000 }).toBe(true);
  const mail = await simpleParser(sink.messages.find((m) => m.to[0] === email)!.raw);
  const png = mail.attachments.find((a) => a.contentType === "image/png")!;
  const image = PNG.sync.read(png.content);
  const qr = jsQR(new Uint8ClampedArray(image.data), image.width, image.height)!.data;
  const ics = mail.attachments.find((a) => a.filename === "event.ics")!.content.toString("utf8");
  return { mail, qr, ics, code: qr.split("/ticket/")[1]! };
}

async function signIn(page: Page) {
  await page.goto(url("/admin/login"));
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin$/);
}

const status = (page: Page) =>
  page.getByRole("status").filter({ hasText: /Admitted|Already|Not a ticket|Ready|Conflict|Refunded|Ticket for/ });

test("anonymous requests to the door's, attendees' and sessions' pages and data are refused", async ({ request }) => {
  for (const path of [
    "/admin/check-in",
    "/admin/events/tablecloth-workshop/attendees",
    "/admin/events/tablecloth-workshop/sessions",
  ]) {
    const response = await request.get(url(path), { maxRedirects: 0 });
    expect(response.status(), path).toBe(302);
    expect(response.headers()["location"]).toBe("/admin/login");
  }
  for (const path of [
    "/admin/check-in/data?event=tablecloth-workshop&session=",
    "/admin/events/tablecloth-workshop/attendees.csv",
  ]) {
    const response = await request.get(url(path), { maxRedirects: 0 });
    expect(response.status(), path).toBe(401);
    expect(response.headers()["content-type"] ?? "").not.toMatch(/csv/);
  }
  const scan = await request.post(url("/admin/check-in/data"), {
    headers: { Origin: app.base },
    form: { payload: JSON.stringify({ intent: "sync", deviceId: "anon", scans: [] }) },
    maxRedirects: 0,
  });
  expect(scan.status()).toBe(401);
});

test("a workshop seat bought sends an email whose QR opens the ticket and whose .ics parses; a typed code admits once", async ({
  page,
}) => {
  await buySeat(page, "Lerato", "lerato@example.com");
  const { mail, qr, ics, code } = await ticketEmail("lerato@example.com");
  expect(mail.html).toBeTruthy();
  expect(mail.text).toContain(code);
  const event = new ICAL.Event(new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent("vevent")!);
  expect(event.summary).toBe("Transform Tablecloth into Wrap Around Skirt");
  expect(event.startDate.toJSDate().toISOString()).toBe("2025-10-04T08:00:00.000Z");

  // The QR names the ticket page (on the configured site URL); the same path on this instance shows it.
  const path = new URL(qr).pathname;
  expect(path).toBe(`/ticket/${code}`);
  const response = await page.goto(url(path));
  expect(response?.headers()["cache-control"]).toBe("private, no-store");
  await expect(
    page.getByRole("heading", { level: 1, name: "Transform Tablecloth into Wrap Around Skirt" }),
  ).toBeVisible();
  await expect(page.getByText("Lerato Dube")).toBeVisible();
  await expect(page.getByRole("img", { name: `QR code for ticket ${code}` })).toBeVisible();
  // The door code under the QR, as the email prints it.
  const doorCode = /Door code: (\S{4}-\S{4})/.exec(mail.text ?? "")![1]!;
  await expect(page.getByText(doorCode, { exact: true })).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: test.info().outputPath("ticket-390.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });
  expect((await page.goto(url("/ticket/AAAAAAAAAAAAAAAAAAAAAAAA")))?.status()).toBe(404);

  await signIn(page);
  await page.goto(url("/admin/check-in"));
  await expect(page.getByText(/tickets saved on this device/)).toBeVisible();
  await page.getByLabel("Ticket code").fill(code);
  await page.getByRole("button", { name: "Check in" }).click();
  await expect(status(page)).toHaveText("Admitted: Lerato Dube, Monthly Workshop");
  await page.getByLabel("Ticket code").fill(code);
  await page.getByRole("button", { name: "Check in" }).click();
  await expect(status(page)).toHaveText(/^Already checked in at \d\d:\d\d by this phoneLerato Dube, Monthly Workshop$/);
  await page.getByLabel("Ticket code").fill("ABCD-EFGH");
  await page.getByRole("button", { name: "Check in" }).click();
  await expect(status(page)).toHaveText("Not a ticket of this shop");
});

test("offline: the door admits from its saved list, and the check-in reaches the server once when the network returns", async ({
  page,
  context,
}) => {
  await buySeat(page, "Naledi", "naledi@example.com");
  const { code } = await ticketEmail("naledi@example.com");
  await signIn(page);
  const syncs: string[] = [];
  page.on("request", (request) => {
    if (
      request.method() === "POST" &&
      request.url().endsWith("/admin/check-in/data") &&
      (request.postData() ?? "").includes("sync")
    )
      syncs.push(request.postData()!);
  });
  await page.goto(url("/admin/check-in"));
  await expect(page.getByText(/2 tickets saved on this device/)).toBeVisible();

  await context.setOffline(true);
  await page.getByLabel("Ticket code").fill(code);
  await page.getByRole("button", { name: "Check in" }).click();
  await expect(status(page)).toHaveText("Admitted: Naledi Dube, Monthly Workshop (offline, will sync)");
  await expect(page.getByText("1 offline check-in waiting to sync.")).toBeVisible();
  // Offline, the saved list knows it is in now.
  await page.getByLabel("Ticket code").fill(code);
  await page.getByRole("button", { name: "Check in" }).click();
  await expect(status(page)).toHaveText(/^Already checked in at/);

  await context.setOffline(false);
  await expect(page.getByText("0 offline check-ins waiting to sync.")).toBeVisible();
  expect(syncs).toHaveLength(1);
  await page.reload();
  await expect(page.getByText(/tickets saved on this device/)).toBeVisible();
  expect(syncs).toHaveLength(1);

  // The server has it: an online scan now says already, and the attendee list shows the time.
  await page.getByLabel("Ticket code").fill(code);
  await page.getByRole("button", { name: "Check in" }).click();
  await expect(status(page)).toHaveText(/^Already checked in at/);
  await page.goto(url("/admin/events/tablecloth-workshop/attendees?q=Naledi"));
  await expect(page.getByText("1 ticket, 1 checked in.")).toBeVisible();
});

async function refund(owner: Page, email: string) {
  await owner.goto(url("/admin/orders"));
  await owner.getByLabel("Search").fill(email);
  await owner.getByRole("button", { name: "Filter" }).click();
  await owner.getByRole("link", { name: /^HB-/ }).first().click();
  await owner.getByText("Refund", { exact: true }).click();
  await owner.getByRole("button", { name: "Yes, refund through the payment provider" }).click();
  await expect(owner.getByText(/Refunded|Refund requested/).first()).toBeVisible();
}

test(
  "the door at 390 px: two letters of a name find a ticket to admit, a door code in lower case admits, a refunded " +
    "ticket is refused with its reason, and the counters follow",
  async ({ page, browser }) => {
    await buySeat(page, "Sibongile", "sibongile@example.com");
    await buySeat(page, "Thabo", "thabo@example.com");
    const { mail } = await ticketEmail("thabo@example.com");
    const doorCode = /Door code: ([23456789A-HJKMNP-Z]{4}-[23456789A-HJKMNP-Z]{4})/.exec(mail.text ?? "")![1]!;
    await buySeat(page, "Refilwe", "refilwe@example.com");
    const refunded = await ticketEmail("refilwe@example.com");

    const owner = await browser.newPage();
    await signIn(owner);
    await refund(owner, "refilwe@example.com");
    await owner.close();

    await signIn(page);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(url("/admin/check-in"));
    await expect(page.getByText(/5 tickets saved on this device/)).toBeVisible();
    // Lerato and Naledi came in earlier; Refilwe's refunded ticket is not counted.
    await expect(page.getByTestId("door-counts")).toHaveText("2 of 4 checked in");

    await page.getByLabel("Ticket code or name").fill("Si");
    const matches = page.getByRole("region", { name: /matching ticket/ });
    await expect(matches.getByRole("listitem")).toHaveCount(1);
    await matches.getByRole("button", { name: "Admit Sibongile Dube" }).click();
    await expect(status(page)).toHaveText("Admitted: Sibongile Dube, Monthly Workshop");
    await expect(page.getByTestId("door-counts")).toHaveText("3 of 4 checked in");

    await page.getByLabel("Ticket code or name").fill(doorCode.replace("-", "").toLowerCase());
    await page.getByRole("button", { name: "Check in" }).click();
    await expect(status(page)).toHaveText("Admitted: Thabo Dube, Monthly Workshop");
    await expect(page.getByTestId("door-counts")).toHaveText("4 of 4 checked in");

    await page.getByLabel("Ticket code or name").fill(refunded.code);
    await page.getByRole("button", { name: "Check in" }).click();
    await expect(status(page)).toContainText("Refunded on 10 Sep — do not admit");
    await expect(status(page)).toContainText("Refilwe Dube, Monthly Workshop");

    // What the owner sees at the door: the refusal, the counters and a search across every buyer.
    await page.getByLabel("Ticket code or name").fill("Dube");
    await expect(page.getByRole("region", { name: /matching tickets/ }).getByRole("listitem")).toHaveCount(5);
    await expect(page.getByText("Do not admit", { exact: true })).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    const results = await (await axe(page)).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
    await page.screenshot({ path: test.info().outputPath("door-390.png"), fullPage: true });
  },
);

test("the door, attendees and session pages: axe finds nothing and nothing scrolls sideways at 390 and 1280 px", async ({
  page,
}) => {
  await signIn(page);
  for (const path of [
    "/admin/check-in",
    "/admin/events/tablecloth-workshop/attendees",
    "/admin/events/tablecloth-workshop/sessions",
  ]) {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(url(path));
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `${path} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
      const results = await (await axe(page)).analyze();
      expect(
        results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
        `${path} at ${width} px`,
      ).toEqual([]);
    }
  }
});
