import { type Page } from "@playwright/test";
import { simpleParser } from "mailparser";
import { startSmtpSink } from "../fakes/smtp-sink";
import { expectUsableAtPhoneAndLaptop } from "./support/admin";
import { startInstance, tempDataDir, type Instance } from "./support/instances";
import { expect, test } from "./support/test";

/*
 * Issue 42 in the browser, on an instance of its own whose mail goes to an SMTP sink: a visitor
 * subscribes in the footer and confirms from the email; the owner sends to Glow Bee members and
 * exactly they receive it, once each; the List-Unsubscribe URL unsubscribes by a POST with no session.
 */
test.describe.configure({ mode: "serial" });
test.setTimeout(180_000);

const NOW = "2025-09-10T10:00:00+02:00";
let app: Instance;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
const url = (p: string) => `${app.base}${p}`;
const SHOTS = process.env.NEWS_SCREENSHOTS;
const PASSWORD = "newsletter-owner-password";

test.beforeAll(async () => {
  test.setTimeout(90_000);
  sink = await startSmtpSink();
  app = await startInstance({ DATA_DIR: tempDataDir(), APP_NOW: NOW, SMTP_URL: sink.url, ADMIN_PASSWORD: PASSWORD });
});
test.afterAll(async () => {
  await app?.stop();
  await sink?.close();
});

async function mailsTo(address: string, subject: string) {
  const found = [];
  for (const message of sink.messages) {
    if (message.to[0] !== address) continue;
    const mail = await simpleParser(message.raw);
    if (mail.subject === subject) found.push(mail);
  }
  return found;
}

/** The subscriber's line of the list as shown (the table from 768 px, a card below it). */
const subscriberRow = (page: Page, email: string) => page.locator("tr:visible, li:visible", { hasText: email });

async function signIn(page: Page) {
  await page.goto(url("/admin/login"));
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(url("/admin"));
}

async function buyMembership(page: Page, tier: string, email: string, last: string, amount: string, news: boolean) {
  await page.goto(url(`/membership/${tier}`));
  await page.getByRole("link", { name: "Choose Plan" }).click();
  await page.getByLabel("First Name").fill("Nomvula");
  await page.getByLabel("Last Name").fill(last);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Phone").fill("082 555 0177");
  await page.getByLabel("Address", { exact: true }).fill("12 Jan Smuts Avenue\nJohannesburg");
  if (news) await page.getByLabel("Send me news of new pieces and workshops").check();
  if (SHOTS && news)
    await page
      .locator("form")
      .filter({ hasText: "Proceed to Payment" })
      .screenshot({ path: `${SHOTS}/checkout-${tier}-390.png` });
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await expect(page).toHaveURL(/\/payments\/simulator\/[0-9a-f-]{36}$/);
  await page.getByRole("button", { name: `Pay ${amount}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();
}

test("a visitor subscribes in the footer, confirms from the email, and the owner sees the consent", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(url("/about"));
  const footer = page.getByRole("contentinfo");
  await footer.getByLabel("What shall we call you? (optional)").fill("Lerato Dlamini-Oosthuizen");
  await footer.getByLabel("E-mail for our news").fill("lerato.dlamini@example.test");
  if (SHOTS) await footer.screenshot({ path: `${SHOTS}/footer-390.png` });
  await footer.getByRole("button", { name: "Sign up" }).click();
  await expect(footer.getByRole("status")).toContainText("Please check your inbox");

  let text = "";
  await expect
    .poll(
      async () =>
        (text = (await mailsTo("lerato.dlamini@example.test", "Please confirm your subscription"))[0]?.text ?? ""),
      { timeout: 20_000 },
    )
    .toContain("/newsletter/confirm?token=");
  const link = new URL(/https?:\/\/\S+\/newsletter\/confirm\?token=[A-Za-z0-9_-]+/.exec(text)![0]);
  await page.goto(url(link.pathname + link.search));
  await page.getByRole("button", { name: "Confirm my subscription" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "You are subscribed" })).toBeVisible();

  await signIn(page);
  await page.goto(url("/admin/newsletters"));
  const row = subscriberRow(page, "lerato.dlamini@example.test");
  await expect(row).toContainText("Subscribed");
  await expect(row).toContainText("Consent given on 10 Sept 2025");
  await expect(row).toContainText("Send me news of new pieces and workshops. I will confirm by the link");
  await expect(row).toContainText("footer form on /about");
  await expect(row).toContainText("confirmation link in an email to the address");
});

test("the owner sends to Glow Bee members: exactly they receive it, once each, and one click unsubscribes", async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 390, height: 900 });
  if (SHOTS) {
    await page.goto(url("/blog"));
    await page
      .getByRole("region", { name: "Hear about new pieces and workshops" })
      .screenshot({ path: `${SHOTS}/blog-390.png` });
  }
  await buyMembership(page, "glow-bee-journey", "ticked.glow@example.test", "Ticked", "R 450.00", true);
  await buyMembership(page, "glow-bee-journey", "unticked.glow@example.test", "Unticked", "R 450.00", false);
  await buyMembership(page, "style-starter", "starter@example.test", "Starter", "R 150.00", true);

  await signIn(page);
  await expectUsableAtPhoneAndLaptop(page, url("/admin/newsletters"));
  await expectUsableAtPhoneAndLaptop(page, url("/admin/newsletters/new"));
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(url("/admin/newsletters/new"));
  await page
    .getByLabel("Title", { exact: true })
    .fill("Three new skirts for Glow Bees, cut from the Woodstock tablecloths");
  await page.getByLabel("Text").fill("## This month\n\nThree skirts, one of each.\n\n- Indigo\n- Saffron\n- Ochre");
  await page.getByRole("radio", { name: "Members of chosen tiers" }).check();
  await page.getByRole("checkbox", { name: /^The Glow Bee Journey members \(2 people\)$/ }).check();
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByText("2 people")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Preview at phone width" })).toBeVisible();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/admin-newsletter-390.png`, fullPage: true });
  await expectUsableAtPhoneAndLaptop(page, page.url());
  await page.setViewportSize({ width: 390, height: 900 });
  await page.getByRole("button", { name: "Send now" }).click();

  const subject = "Three new skirts for Glow Bees, cut from the Woodstock tablecloths";
  await expect
    .poll(
      async () =>
        (await mailsTo("ticked.glow@example.test", subject)).length +
        (await mailsTo("unticked.glow@example.test", subject)).length,
      {
        timeout: 45_000,
      },
    )
    .toBe(2);
  // The newsletter's page counts them as sent, and nobody else got it.
  await expect
    .poll(
      async () => {
        await page.reload();
        return page.locator("xpath=//dt[.='Sent']/following-sibling::dd[1]").textContent();
      },
      { timeout: 30_000 },
    )
    .toBe("2");
  const everyone = await Promise.all(
    sink.messages.map(async (m) => ({ to: m.to[0], mail: await simpleParser(m.raw) })),
  );
  expect(
    everyone
      .filter((m) => m.mail.subject === subject)
      .map((m) => m.to)
      .sort(),
  ).toEqual(["ticked.glow@example.test", "unticked.glow@example.test"]);

  const [mail] = await mailsTo("unticked.glow@example.test", subject);
  // A long header arrives folded over lines; unfolded, it reads as written.
  const header = (key: string) => (mail!.headerLines.find((h) => h.key === key)?.line ?? "").replace(/\r?\n\s+/g, " ");
  expect(header("list-unsubscribe-post")).toBe("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
  const target = new URL(/^List-Unsubscribe: ?<(https?:\/\/[^>]+)>$/.exec(header("list-unsubscribe"))![1]!);
  expect(mail!.text).toContain(`Unsubscribe with one click: ${target.href}`);
  // What a mail app sends: a POST with no cookie.
  const oneClick = await request.post(url(target.pathname), {
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    data: "List-Unsubscribe=One-Click",
  });
  expect(oneClick.status()).toBe(200);
  await page.goto(url(target.pathname));
  await expect(page.getByRole("heading", { level: 1, name: "You are unsubscribed" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Subscribe again" })).toBeVisible();
  await page.goto(url("/admin/newsletters"));
  await expect(subscriberRow(page, "unticked.glow@example.test")).toContainText("Unsubscribed");
});
