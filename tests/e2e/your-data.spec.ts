import { type Page } from "@playwright/test";
import { simpleParser } from "mailparser";
import { startSmtpSink } from "../fakes/smtp-sink";
import { expectUsableAtPhoneAndLaptop } from "./support/admin";
import { startInstance, type Instance } from "./support/instances";
import { expect, test } from "./support/test";

/*
 * Issue 42 in the browser, on an instance of its own whose mail goes to an SMTP sink: a customer who
 * wrote to the shop asks for her data by email, opens it from the link, and asks to delete it; the
 * owner sees the request; /privacy says who to ask and how.
 */
test.describe.configure({ mode: "serial" });
test.setTimeout(120_000);

const EMAIL = "zodwa.mahlangu-van-der-westhuizen@example.test";
let app: Instance;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
const url = (p: string) => `${app.base}${p}`;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  sink = await startSmtpSink();
  app = await startInstance({ APP_NOW: "2025-09-10T10:00:00+02:00", SMTP_URL: sink.url });
});
test.afterAll(async () => {
  await app?.stop();
  await sink?.close();
});

async function mailText(subject: string): Promise<string> {
  let text = "";
  await expect
    .poll(
      async () => {
        for (const message of sink.messages) {
          const mail = await simpleParser(message.raw);
          if (message.to[0] === EMAIL && mail.subject === subject) text = mail.text ?? "";
        }
        return text;
      },
      { timeout: 20_000 },
    )
    .not.toBe("");
  return text;
}

const localPath = (link: string) => {
  const parsed = new URL(link);
  return url(`${parsed.pathname}${parsed.search}`);
};

async function shot(page: Page, path: string, file: string) {
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(url(path));
  await page.screenshot({ path: `test-results/${file}`, fullPage: true });
}

test("a customer gets her data by an emailed link, sees her message, and asks to delete it", async ({ page }) => {
  await page.goto(url("/contact"));
  await page.getByLabel("First Name", { exact: true }).fill("Zodwa");
  await page.getByLabel("Last Name", { exact: true }).fill("Mahlangu-van der Westhuizen");
  await page.getByLabel("Email", { exact: true }).fill(EMAIL);
  await page.getByLabel("Subject", { exact: true }).fill("Alterations");
  await page.getByLabel("Message", { exact: true }).fill("Could you shorten a wedding dress by 5 cm?");
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByText("Message sent successfully!")).toBeVisible();

  await page.goto(url("/"));
  await page.getByRole("link", { name: "Your data" }).click();
  await expect(page).toHaveURL(url("/your-data"));
  await expectUsableAtPhoneAndLaptop(page, url("/your-data"));
  await page.getByRole("button", { name: "Email me a link to my data" }).click();
  await expect(page.getByText("Please enter your email address.")).toBeVisible();
  await page.getByRole("textbox", { name: "Email" }).fill(EMAIL);
  await page.getByRole("button", { name: "Email me a link to my data" }).click();
  await expect(page.getByRole("status")).toContainText(
    `If we hold anything under ${EMAIL}, a link to it is on its way.`,
  );

  const link = /https?:\/\/\S+\/your-data\/open\?token=[A-Za-z0-9_-]+/.exec(
    await mailText("Your Honey Bee data link"),
  )![0];
  await page.goto(localPath(link));
  await page.getByRole("button", { name: "See my data" }).click();
  await expect(page).toHaveURL(url("/your-data"));
  await expect(page.getByText("Could you shorten a wedding dress by 5 cm?")).toBeVisible();
  await expect(page.getByRole("link", { name: "Download my data (JSON)" })).toHaveAttribute(
    "href",
    "/your-data/download/json",
  );
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download my data (JSON)" }).click();
  const file = await (await download).path();
  const { readFileSync } = await import("node:fs");
  expect(readFileSync(file, "utf8")).toContain("Could you shorten a wedding dress by 5 cm?");
  await expectUsableAtPhoneAndLaptop(page, url("/your-data"));
  await shot(page, "/your-data", "your-data-390.png");

  await page.getByRole("button", { name: "Delete my data in 7 days" }).click();
  await expect(page.getByRole("status")).toContainText("We will delete your data on 17 September 2025.");
  await expect(page.getByRole("button", { name: "Keep my data" })).toBeVisible();
  await shot(page, "/your-data", "your-data-deleting-390.png");
  const undo = /https?:\/\/\S+\/your-data\/undo\?token=[A-Za-z0-9_-]+/.exec(
    await mailText("Your Honey Bee data will be deleted"),
  )![0];
  expect(undo).toContain("/your-data/undo?token=");
});

test("the owner sees the request with its dates; /privacy names who to ask and the Regulator", async ({ page }) => {
  await page.goto(url("/admin/login"));
  await page.getByLabel("Password").fill("instance-admin-password");
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(url("/admin"));
  await page.goto(url("/admin/data-requests"));
  await expect(page.getByText(`: ${EMAIL}`)).toBeVisible();
  await expect(page.getByText("Scheduled", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Schedule the erasure" }).click();
  await expect(page.getByText("Enter the person's email address.")).toBeVisible();
  await expectUsableAtPhoneAndLaptop(page, url("/admin/data-requests"));
  await shot(page, "/admin/data-requests", "admin-data-requests-390.png");
  await page.context().clearCookies();

  await page.goto(url("/"));
  await page.getByRole("link", { name: "Privacy" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Privacy" })).toBeVisible();
  await expect(page.getByText("POPIAComplaints@inforegulator.org.za")).toBeVisible();
  await expect(page.getByRole("link", { name: "eservices.inforegulator.org.za" })).toHaveAttribute(
    "href",
    "https://eservices.inforegulator.org.za",
  );
  await expect(page.getByText("Woodmead North Office Park, 54 Maxwell Drive")).toBeVisible();
  await expect(page.getByRole("link", { name: "Your data" }).first()).toBeVisible();
  await expectUsableAtPhoneAndLaptop(page, url("/privacy"));
  await shot(page, "/privacy", "privacy-390.png");
});
