import { type Browser } from "@playwright/test";
import { simpleParser } from "mailparser";
import { startSmtpSink } from "../fakes/smtp-sink";
import { expectUsableAtPhoneAndLaptop } from "./support/admin";
import { emailedSignInLink } from "./support/member";
import { startInstance, tempDataDir, type Instance } from "./support/instances";
import { expect, test } from "./support/test";

/*
 * Issue 40 in the waiting-list offer's checkout: a Creative Bee member on the waiting list opens her offer
 * signed in and sees her 10% on the offered seat, the total the action will charge (390 px, axe clean).
 * The seat is freed as in waitlist.spec: the owner refunds it back to sale, and a restart runs the timed work.
 * Then she types the owner's code WAIT15 (15% off events), which beats her 10%: the page, and the payment
 * page, say R 212.50.
 */
test.describe.configure({ mode: "serial" });
test.setTimeout(240_000);

const PASSWORD = "offer-perks-admin-password";
const DATA_DIR = tempDataDir();
const NOW = "2025-09-10T10:00:00+02:00";
const MEMBER = { name: "Nomvula Dlamini-Mthembu van der Westhuizen", email: "nomvula.offer@example.test" };
let app: Instance;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
const url = (p: string) => `${app.base}${p}`;
const start = () => startInstance({ DATA_DIR, APP_NOW: NOW, SMTP_URL: sink.url, ADMIN_PASSWORD: PASSWORD });

test.beforeAll(async () => {
  test.setTimeout(90_000);
  sink = await startSmtpSink();
  app = await start();
});
test.afterAll(async () => {
  await app?.stop();
  await sink?.close();
});

async function pay(browser: Browser, link: RegExp | string, email: string) {
  const page = await (await browser.newContext()).newPage();
  await page.goto(url(typeof link === "string" ? link : "/workshop/tablecloth-skirt"));
  if (typeof link !== "string") await page.getByRole("link", { name: link }).click();
  else await page.getByRole("link", { name: "Choose Plan" }).click();
  await page.getByLabel("First Name").fill("Lerato");
  await page.getByLabel("Last Name").fill("Khumalo");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Phone").fill("082 555 0142");
  await page.getByLabel("Address").fill("9 Rissik Street\nJohannesburg");
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
  const reference = (await page.getByTestId("order-reference").textContent())!.trim();
  await page.context().close();
  return reference;
}

test("a Creative Bee member's offered seat is priced with her perk", async ({ browser }) => {
  const owner = await (await browser.newContext()).newPage();
  await owner.goto(url("/admin/login"));
  await owner.getByLabel("Password").fill(PASSWORD);
  await owner.getByRole("button", { name: "Sign In" }).click();
  await expect(owner).toHaveURL(/\/admin$/);
  await owner.goto(url("/admin/events/tablecloth-workshop/sessions"));
  await owner.getByLabel("Date").fill("2025-09-20");
  await owner.getByLabel("Seats (empty: the ticket's own)").fill("1");
  await owner.getByRole("button", { name: "Add session" }).click();
  await expect(owner.getByText("Seats: 1")).toBeVisible();
  await owner.goto(url("/admin/codes/new"));
  await owner.getByLabel("Code", { exact: true }).fill("WAIT15");
  await owner.getByLabel("Percent off").fill("15");
  await owner.getByLabel("Applies to").selectOption("events");
  await owner.getByRole("button", { name: "Add code" }).click();
  await expect(owner).toHaveURL(url("/admin/codes"));

  await pay(browser, "/membership/creative-bee", MEMBER.email);
  const sold = await pay(browser, /^Join Monthly Workshop/, "first@example.test");

  const member = await (await browser.newContext({ viewport: { width: 390, height: 900 } })).newPage();
  await member.goto(url("/workshop/tablecloth-skirt"));
  await member.getByRole("link", { name: "Join the waiting list" }).click();
  await member.getByLabel("Name").fill(MEMBER.name);
  await member.getByLabel("Email").fill(MEMBER.email);
  await member.getByLabel("Seats wanted").selectOption("1");
  await member.getByRole("button", { name: "Join the waiting list" }).click();
  await expect(member.getByRole("heading", { name: "You are on the waiting list" })).toBeVisible();

  await owner.goto(url("/admin/orders"));
  await owner.getByRole("link", { name: sold }).click();
  await owner.getByText("Refund", { exact: true }).click();
  await owner.getByLabel("Return the seat to sale").check();
  await owner.getByRole("button", { name: "Yes, refund through the payment provider" }).click();
  await expect(owner.getByText(/Refunded|Refund already requested/).first()).toBeVisible();
  await owner.context().close();

  // The timed work runs at every start: the freed seat is offered to the member.
  await app.stop();
  app = await start();
  let offer = "";
  await expect
    .poll(
      async () => {
        for (const message of sink.messages.filter((m) => m.to[0] === MEMBER.email)) {
          const mail = await simpleParser(message.raw);
          offer = /\/waiting-list\/offer\/[A-Za-z0-9_-]{32}/.exec(mail.text ?? "")?.[0] ?? offer;
        }
        return offer;
      },
      { timeout: 30_000 },
    )
    .not.toBe("");

  await member.goto(url(offer));
  await expect(member.getByTestId("checkout-total")).toHaveText("R 250.00");
  await member.goto(await emailedSignInLink(member, sink, MEMBER.email, url));
  await member.getByRole("button", { name: "Sign in" }).click();
  await expect(member).toHaveURL(url("/account"));
  await expectUsableAtPhoneAndLaptop(member, url(offer));
  await member.setViewportSize({ width: 390, height: 900 });
  await expect(member.getByTestId("checkout-perk")).toContainText("10% Creative Bee");
  await expect(member.getByTestId("checkout-total")).toHaveText("R 225.00");
  await expect(member.getByRole("button", { name: "Proceed to Payment" })).toBeVisible();
  await member.screenshot({ path: "/tmp/perks3-shots/offer-member-price-390.png", fullPage: true });

  // Her code beats her perk on the seat: the better of the two, never both.
  await member.getByLabel("Discount code").fill("wait15");
  await member.getByRole("button", { name: "Apply" }).click();
  await expect(member.getByText("The code WAIT15 is applied.")).toBeVisible();
  await expect(member.getByTestId("checkout-perk")).toContainText("15% WAIT15");
  await expect(member.getByTestId("checkout-perk")).toContainText("−R 37.50");
  await expect(member.getByTestId("checkout-total")).toHaveText("R 212.50");
  await expectUsableAtPhoneAndLaptop(member, member.url());
  await member.setViewportSize({ width: 390, height: 900 });
  await member.screenshot({ path: "/tmp/codes2-shots/offer-code-applied-390.png", fullPage: true });
  await member.getByLabel("First Name").fill("Nomvula");
  await member.getByLabel("Last Name").fill("Dlamini-Mthembu van der Westhuizen");
  await member.getByLabel("Email").fill(MEMBER.email);
  await member.getByLabel("Phone").fill("082 555 0142");
  await member.getByLabel("Address").fill("9 Rissik Street\nJohannesburg");
  await member.getByRole("button", { name: "Proceed to Payment" }).click();
  await expect(member.getByTestId("simulator-amount")).toHaveText("R 212.50");
});
