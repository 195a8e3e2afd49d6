import { type Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { axe } from "./support/axe";

async function fill(page: Page, values: Partial<Record<string, string>>) {
  const labels: Record<string, string> = {
    firstName: "First Name",
    lastName: "Last Name",
    email: "Email",
    subject: "Subject",
    message: "Message",
  };
  for (const [key, label] of Object.entries(labels)) {
    if (values[key] !== undefined) await page.getByLabel(label, { exact: true }).fill(values[key]!);
  }
}
const valid = {
  firstName: "Lerato",
  lastName: "Dube",
  email: "lerato@example.com",
  subject: "Hello",
  message: "Lovely work!",
};

test("contact page shows info, social links and pre-fills the subject", async ({ page }) => {
  await page.goto("/contact?subject=Candy%20Earrings");
  await expect(page.getByLabel("Subject", { exact: true })).toHaveValue("Candy Earrings");
  for (const name of ["Facebook", "Instagram", "LinkedIn"]) {
    const link = page.getByRole("link", { name: new RegExp(name) });
    await expect(link).toHaveAttribute("target", "_blank");
    await expect(link).toHaveAttribute("rel", "noopener noreferrer");
  }
});

test("with JavaScript: validation toast, then success clears the form", async ({ page }) => {
  // Beacons are invisible to Playwright; without one, trackEvent falls back to fetch.
  await page.addInitScript(() => Object.defineProperty(navigator, "sendBeacon", { value: () => false }));
  await page.goto("/contact");
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByText("Please fill in all fields")).toBeVisible();
  await fill(page, { ...valid, email: "bad" });
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByText("Please enter a valid email address.")).toBeVisible();
  await fill(page, { email: valid.email });
  const tracked = page.waitForRequest(
    (r) => r.url().endsWith("/api/analytics") && (r.postData() ?? "").includes("contact_form_submit"),
  );
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByText("Message sent successfully!")).toBeVisible();
  await expect(page.getByLabel("First Name")).toHaveValue("");
  const body = JSON.parse((await tracked).postData()!);
  expect(body).toMatchObject({ pagePath: "/contact", metadata: { subject: "Hello" } });
  expect(body.metadata.sessionId).toBe(body.sessionId);
});

test("the form's schema is fetched when a visitor starts on the form, and a send before it arrives waits for its check", async ({
  page,
}) => {
  const schemaRequests: string[] = [];
  page.on("request", (r) => {
    if (/\/assets\/contact-schema-[\w-]+\.js$/.test(r.url())) schemaRequests.push(r.url());
  });
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/contact-schema-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && new URL(r.url()).pathname.startsWith("/contact")) posts.push(r.url());
  });
  await page.goto("/contact"); // hydrated
  await page.waitForLoadState("networkidle");
  expect(schemaRequests).toEqual([]);

  // Pressing Send focuses the form (which asks for the schema) and submits before the schema is in.
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect.poll(() => schemaRequests.length).toBe(1);
  await expect(page.getByText("Please fill in all fields")).toHaveCount(0);
  release();
  // Once the check has arrived it runs on what was sent: empty fields are not sent to the server.
  await expect(page.getByText("Please fill in all fields")).toBeVisible();
  expect(posts).toEqual([]);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  test("a plain POST shows the toast; failures keep values", async ({ page }) => {
    await page.goto("/contact");
    await fill(page, { ...valid, email: "" });
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByText("Please fill in all fields")).toBeVisible();
    await expect(page.getByLabel("First Name")).toHaveValue("Lerato");
    await fill(page, { email: "lerato@example.com" });
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByText("Message sent successfully!")).toBeVisible();
    await expect(page.getByLabel("First Name")).toHaveValue("");
    // Redirected after the post (decision 096): reloading asks for the page again, it sends nothing.
    await expect(page).toHaveURL(/\/contact\?sent=1$/);
    const reloaded = await page.reload();
    expect(reloaded?.request().method()).toBe("GET");
    // The same page for everyone who sent a message: answered from memory, not rendered per message.
    expect(reloaded?.headers()["x-page-cache"]).toBe("HIT");
    await expect(page.getByText("Message sent successfully!")).toBeVisible();
  });
});

for (const width of [390, 1280]) {
  test(`axe finds nothing on /contact at ${width}px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/contact");
    expect((await (await axe(page)).analyze()).violations).toEqual([]);
  });
}
