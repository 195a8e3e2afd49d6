import type { Browser, Page } from "@playwright/test";
import { ADMIN_PASSWORD, expectUsableAtPhoneAndLaptop, signInAsOwner } from "./support/admin";
import { startInstance, tempDataDir, type Instance } from "./support/instances";
import { expect, test, waitForHydration } from "./support/test";

/*
 * Issue 21's owner view, on an instance of its own (so no other spec's purchases move its figures): a
 * visitor buys a membership through checkout and the simulator; the owner sees active members and MRR
 * grow by the tier's price on the dashboard and in /admin/members, finds the member by email, and gives
 * a month (paid until moves one calendar month). Both pages pass axe with nothing wider than a phone.
 */
test.describe.configure({ mode: "serial" });
test.setTimeout(120_000);

let app: Instance;
const url = (p: string) => `${app.base}${p}`;

test.beforeAll(async () => {
  test.setTimeout(90_000);
  app = await startInstance({ DATA_DIR: tempDataDir(), APP_NOW: "2025-09-10T10:00:00+02:00", ADMIN_PASSWORD });
});
test.afterAll(async () => {
  await app?.stop();
});

async function ownerPage(browser: Browser): Promise<Page> {
  const owner = await (await browser.newContext({ baseURL: app.base })).newPage();
  await signInAsOwner(owner);
  return owner;
}

/** "R 1,950.00" -> 195000 */
const cents = (text: string | null) => Math.round(Number((text ?? "").replace(/[^\d.]/g, "")) * 100);

async function dashboardFigures(owner: Page) {
  await owner.goto("/admin");
  await waitForHydration(owner);
  return {
    active: Number(await owner.getByTestId("counter-active-members").textContent()),
    mrr: cents(await owner.getByTestId("counter-monthly-recurring-revenue").textContent()),
  };
}

test("the owner finds a new member, sees MRR grow by the tier's price, and gives a month", async ({
  browser,
  page,
}) => {
  const owner = await ownerPage(browser);
  const before = await dashboardFigures(owner);

  // A visitor in another browser buys The Glow Bee Journey (R 450.00 a month).
  await page.goto(url("/checkout?type=membership&item=glow-bee-journey&price=R450"));
  await page.getByLabel("First Name").fill("Naledi");
  await page.getByLabel("Last Name").fill("Sithole");
  await page.getByLabel("Email").fill("Naledi.Sithole@example.test");
  await page.getByLabel("Phone").fill("082 555 0177");
  await page.getByLabel("Address").fill("3 Juta Street\nBraamfontein");
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await page.getByRole("button", { name: "Pay R 450.00" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payment Successful!" })).toBeVisible();

  // The dashboard: one more active member, MRR up by the tier's price.
  const after = await dashboardFigures(owner);
  expect(after.active - before.active).toBe(1);
  expect(after.mrr - before.mrr).toBe(45_000);

  // The members list, reached from the dashboard, agrees; the member is found by (part of) their email.
  await owner.getByRole("link", { name: /from active and due members: show the members/ }).click();
  await expect(owner).toHaveURL(/\/admin\/members$/);
  await expect(owner.getByRole("heading", { level: 1, name: "Members" })).toBeVisible();
  expect(cents(await owner.getByTestId("members-mrr").textContent())).toBe(after.mrr);
  await expect(owner.getByTestId("members-count-active")).toHaveText(String(after.active));
  await owner.getByLabel("Search").fill("naledi.sithole@EXAMPLE");
  await owner.getByRole("button", { name: "Filter" }).click();
  await expect(owner).toHaveURL(/q=naledi.sithole%40EXAMPLE/);
  await expect(owner.getByText("1 member", { exact: true })).toBeVisible();
  const row = owner.getByRole("row", { name: /Naledi Sithole/ });
  await expect(row).toContainText("naledi.sithole@example.test");
  await expect(row).toContainText("The Glow Bee Journey");
  await expect(row).toContainText("Active");
  await expect(row).toContainText("10 October 2025");

  // The member's page: a month as a gift moves paid until by one calendar month, noted in the history.
  await row.getByRole("link", { name: "Naledi Sithole" }).click();
  await expect(owner.getByRole("heading", { level: 1, name: "Naledi Sithole" })).toBeVisible();
  await expect(owner.getByTestId("member-paid-until")).toHaveText("10 October 2025");
  const memberPath = new URL(owner.url()).pathname;
  await owner.getByText("Extend by a month", { exact: true }).click();
  await owner.getByRole("button", { name: "Yes, extend by a month" }).click();
  await expect(owner.getByText("Write a note saying why")).toBeVisible();
  await expect(owner.getByTestId("member-paid-until")).toHaveText("10 October 2025");
  await owner.getByLabel("Note").fill("Thank you for modelling at the market");
  await owner.getByRole("button", { name: "Yes, extend by a month" }).click();
  await expect(owner.getByText("Month added")).toBeVisible();
  await expect(owner.getByTestId("member-paid-until")).toHaveText("10 November 2025");
  await expect(owner.getByText("Thank you for modelling at the market")).toBeVisible();
  await expect(owner.getByRole("link", { name: /^Order HB-/ })).toHaveAttribute(
    "href",
    /^\/admin\/orders\/[0-9a-f-]{36}$/,
  );

  // Both pages on a phone and a laptop.
  await expectUsableAtPhoneAndLaptop(owner, "/admin/members?q=naledi");
  await expectUsableAtPhoneAndLaptop(owner, memberPath);
});
