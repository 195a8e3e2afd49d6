import { type Browser, type Page } from "@playwright/test";
import { simpleParser } from "mailparser";
import { startSmtpSink } from "../fakes/smtp-sink";
import { expectUsableAtPhoneAndLaptop } from "./support/admin";
import { axe } from "./support/axe";
import { startInstance, tempDataDir, type Instance } from "./support/instances";
import { expect, test, waitForHydration } from "./support/test";

/*
 * Issue 39's waiting list in the browser, on instances of its own whose mail goes to an SMTP sink: the
 * workshop's session has 2 seats, two buyers take them, a third and a fourth join the list; the owner
 * refunds a seat back to sale; the timed work (which runs at every start: here a restart stands in for
 * the next minute) offers it to the third, whose link opens checkout with the seat held; a restart a day
 * later (the one clock moved) lapses that offer and offers the seat to the fourth, who buys it.
 */
test.describe.configure({ mode: "serial" });
test.setTimeout(240_000);

const PASSWORD = "waitlist-admin-password";
const DATA_DIR = tempDataDir();
const DAY_ONE = "2025-09-10T10:00:00+02:00";
const DAY_TWO = "2025-09-11T10:00:30+02:00";
const THIRD = { name: "Nomvula Dlamini-Mthembu van der Westhuizen", email: "nomvula.dlamini-mthembu@example.test" };
const FOURTH = { name: "Anele Sithole-Pietersen", email: "anele.sithole@example.test" };
let app: Instance;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
const url = (p: string) => `${app.base}${p}`;

const start = (now: string) => startInstance({ DATA_DIR, APP_NOW: now, SMTP_URL: sink.url, ADMIN_PASSWORD: PASSWORD });

test.beforeAll(async () => {
  test.setTimeout(90_000);
  sink = await startSmtpSink();
  app = await start(DAY_ONE);
});
test.afterAll(async () => {
  await app?.stop();
  await sink?.close();
});

async function restartAt(now: string) {
  await app.stop();
  app = await start(now);
}

/** The offer link's path from the last offer email to `address`, once it arrives. */
async function offerPathFor(address: string): Promise<string> {
  let path = "";
  await expect
    .poll(
      async () => {
        for (const message of sink.messages.filter((m) => m.to[0] === address)) {
          const mail = await simpleParser(message.raw);
          const found = /\/waiting-list\/offer\/[A-Za-z0-9_-]{32}/.exec(mail.text ?? "");
          if (mail.subject?.startsWith("Seats held for you") && found) path = found[0];
        }
        return path;
      },
      { timeout: 30_000 },
    )
    .not.toBe("");
  return path;
}

async function ownerPage(browser: Browser) {
  const owner = await (await browser.newContext()).newPage();
  await owner.goto(url("/admin/login"));
  await owner.getByLabel("Password").fill(PASSWORD);
  await owner.getByRole("button", { name: "Sign In" }).click();
  await expect(owner).toHaveURL(/\/admin$/);
  return owner;
}

async function fillBuyer(page: Page, email: string) {
  await page.getByLabel("First Name").fill("Lerato");
  await page.getByLabel("Last Name").fill("Khumalo");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Phone").fill("082 555 0142");
  await page.getByLabel("Address").fill("9 Rissik Street\nJohannesburg");
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await expect(page).toHaveURL(/\/payments\/simulator\//);
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
  return (await page.getByTestId("order-reference").textContent())!.trim();
}

async function buySeat(browser: Browser, email: string) {
  const page = await (await browser.newContext()).newPage();
  await page.goto(url("/workshop/tablecloth-skirt"));
  await page.getByRole("link", { name: "Join Monthly Workshop - R250" }).click();
  // A page of a context of its own does not wait for hydration by itself (see admin-events.spec.ts).
  await expect(page).toHaveURL(/\/checkout\?type=workshop/);
  await waitForHydration(page);
  const reference = await fillBuyer(page, email);
  await page.context().close();
  return reference;
}

async function joinList(page: Page, who: { name: string; email: string }, screenshot?: string) {
  await page.goto(url("/workshop/tablecloth-skirt"));
  await page.getByRole("link", { name: "Join the waiting list" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Join the waiting list" })).toBeVisible();
  await page.getByLabel("Name").fill(who.name);
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Seats wanted").selectOption("1");
  if (screenshot) await page.screenshot({ path: screenshot, fullPage: true });
  await page.getByRole("button", { name: "Join the waiting list" }).click();
  await expect(page.getByRole("heading", { name: "You are on the waiting list" })).toBeVisible();
}

test("capacity 2 sells out, two join, a refunded seat is offered to the third, then to the fourth when the third's offer lapses", async ({
  browser,
}) => {
  const owner = await ownerPage(browser);
  await owner.goto(url("/admin/events/tablecloth-workshop/sessions"));
  await owner.getByLabel("Date").fill("2025-09-20");
  await owner.getByLabel("Seats (empty: the ticket's own)").fill("2");
  await owner.getByRole("button", { name: "Add session" }).click();
  await expect(owner.getByText("Seats: 2")).toBeVisible();

  await buySeat(browser, "first@example.test");
  const second = await buySeat(browser, "second@example.test");

  const visitor = await (await browser.newContext({ viewport: { width: 390, height: 900 } })).newPage();
  await joinList(visitor, THIRD, "test-results/waitlist-join-390.png");
  // The form works without JavaScript too: the fourth joins with it off.
  const noScript = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
  await joinList(noScript, FOURTH);
  await joinList(noScript, FOURTH).catch(() => undefined);
  await expect(noScript.getByText(`${FOURTH.email} is already on the waiting list`)).toBeVisible();
  await noScript.context().close();

  // The owner refunds the second buyer's seat and returns it to sale.
  await owner.goto(url("/admin/orders"));
  await owner.getByRole("link", { name: second }).click();
  await owner.getByText("Refund", { exact: true }).click();
  await owner.getByLabel("Return the seat to sale").check();
  await owner.getByRole("button", { name: "Yes, refund through the payment provider" }).click();
  await expect(owner.getByText(/Refunded|Refund already requested/).first()).toBeVisible();

  // The next run of the timed work (at the next start) offers it to the third, and to nobody else.
  await restartAt(DAY_ONE);
  const thirdOffer = await offerPathFor(THIRD.email);
  await visitor.goto(url("/workshop/tablecloth-skirt"));
  await expect(visitor.getByRole("link", { name: "Join the waiting list" })).toBeVisible();
  await visitor.goto(url(thirdOffer));
  await expect(visitor.getByTestId("offer-held-until")).toContainText(
    "held for you until Thursday, 11 September at 10:00",
  );
  await visitor.getByLabel("First Name").fill("Nomvula");
  await visitor.screenshot({ path: "test-results/waitlist-offer-checkout-390.png", fullPage: true });

  const ownerAgain = await ownerPage(browser);
  await ownerAgain.setViewportSize({ width: 390, height: 900 });
  await ownerAgain.goto(url("/admin/events/tablecloth-workshop"));
  await ownerAgain.getByRole("link", { name: "Waiting list" }).click();
  await expect(ownerAgain.getByTestId("waitlist-size")).toContainText("2 waiting = R 500.00");
  await expect(ownerAgain.getByText(/Offer until Thursday, 11 September at 10:00/)).toBeVisible();
  await ownerAgain.screenshot({ path: "test-results/waitlist-owner-390.png", fullPage: true });
  await expectUsableAtPhoneAndLaptop(ownerAgain, url("/admin/events/tablecloth-workshop/waiting-list"));
  await expectUsableAtPhoneAndLaptop(ownerAgain, url("/admin/settings"));
  await ownerAgain.setViewportSize({ width: 390, height: 900 });
  await ownerAgain.getByLabel("Offer window (hours)").fill("0");
  await ownerAgain.getByRole("button", { name: "Save offer window" }).click();
  await expect(ownerAgain.getByText("Offer window must be a whole number of hours from 1 to 168.")).toBeVisible();
  await ownerAgain.getByText("Offer window must be").scrollIntoViewIfNeeded();
  await ownerAgain.screenshot({ path: "test-results/waitlist-settings-390.png" });
  await ownerAgain.context().close();
  await owner.context().close();

  // A day later the third has not bought: the offer lapses and the fourth is offered in the same pass.
  await restartAt(DAY_TWO);
  const fourthOffer = await offerPathFor(FOURTH.email);
  await visitor.goto(url(thirdOffer));
  await expect(visitor.getByText(/This offer has ended/)).toBeVisible();
  await visitor.context().close();

  const fourth = await (await browser.newContext()).newPage();
  await expectUsableAtPhoneAndLaptop(fourth, url(fourthOffer));
  await expect(fourth.getByTestId("offer-seats")).toHaveText("1");
  await fillBuyer(fourth, FOURTH.email);
  await fourth.goto(url(fourthOffer));
  await expect(fourth.getByText(/already been used/)).toBeVisible();
  await fourth.context().close();
});

test("the join page and an ended offer fit a phone and a laptop, and axe finds nothing", async ({ page }) => {
  await page.goto(url("/workshop/tablecloth-skirt"));
  const join = await page.getByRole("link", { name: "Join the waiting list" }).getAttribute("href");
  for (const path of [join!, "/waiting-list/offer/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"])
    await expectUsableAtPhoneAndLaptop(page, url(path));
  // With JavaScript, the action's schema checks the form first: messages at the fields, focus on the first.
  await page.goto(url(join!));
  const posts: string[] = [];
  page.on("request", (request) => request.method() === "POST" && posts.push(request.url()));
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByRole("button", { name: "Join the waiting list" }).click();
  await expect(page.getByText("Name is required.")).toBeVisible();
  await expect(page.getByText("Email must be an email address, e.g. thandi@example.co.za.")).toBeVisible();
  await expect(page.getByLabel("Name")).toBeFocused();
  expect(posts).toEqual([]);
  await expectNoAxeViolations(page);
});

async function expectNoAxeViolations(page: Page) {
  const results = await (await axe(page)).analyze();
  expect(results.violations.map((v) => v.id)).toEqual([]);
}
