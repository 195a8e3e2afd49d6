import { type Locator, type Page } from "@playwright/test";
import { expect, test } from "./support/test";
import { startInstance, type Instance } from "./support/instances";

// Sending real messages: an instance of its own, so the per-visitor rate limit (5 per window) counts
// only this file's messages, and the last test can reach it on purpose.
let app: Instance;
test.beforeAll(async () => {
  app = await startInstance({ APP_NOW: "2025-09-10T10:00:00+02:00" });
});
test.afterAll(async () => {
  await app?.stop();
});
test.describe.configure({ mode: "serial" });

const valid = {
  "First Name": "Naledi",
  "Last Name": "Sithole",
  Email: "naledi@example.com",
  Subject: "Capsule reset",
  Message: "When can we start?",
};

async function fill(form: Locator, values: Partial<typeof valid>) {
  for (const [label, value] of Object.entries(values)) await form.getByLabel(label, { exact: true }).fill(value);
}
const homeForm = (page: Page) => page.locator("section#contact form");
const contactForm = (page: Page) => page.locator("main form").filter({ has: page.getByLabel("Message") });

test("the button reads Sending... and is disabled while the message is on its way; success clears the form", async ({
  page,
}) => {
  await page.goto(`${app.base}/contact`);
  await page.route("**/contact.data*", async (route) => {
    await new Promise((r) => setTimeout(r, 800));
    await route.continue();
  });
  const form = contactForm(page);
  await fill(form, valid);
  await form.getByRole("button", { name: "Send Message" }).click();
  await expect(form.getByRole("button", { name: "Sending..." })).toBeDisabled();
  await expect(page.getByText("Message sent successfully!")).toBeVisible();
  await expect(page.getByText("Thank you for getting in touch. We'll get back to you soon.")).toBeVisible();
  await expect(form.getByRole("button", { name: "Send Message" })).toBeEnabled();
  await expect(form.getByLabel("Message")).toHaveValue("");
});

test("a send that fails shows the failure toast and keeps every value", async ({ page }) => {
  const errors: string[] = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.goto(`${app.base}/contact`);
  await page.route("**/contact.data*", (route) => route.abort("connectionreset"));
  const form = contactForm(page);
  await fill(form, valid);
  await form.getByRole("button", { name: "Send Message" }).click();
  const toast = page.getByRole("alert").filter({ hasText: "Failed to send message" });
  await expect(toast).toBeVisible();
  await expect(toast).toContainText("Please try again or contact us directly.");
  for (const [label, value] of Object.entries(valid))
    await expect(form.getByLabel(label, { exact: true })).toHaveValue(value);
  await expect(page.getByRole("heading", { name: "Get in Touch", level: 1 })).toBeVisible();
  expect(errors.some((e) => e.includes("Failed to send message"))).toBe(true);
});

test("a server error while sending is the same failure toast, not an error page", async ({ page }) => {
  await page.goto(`${app.base}/`);
  await page.route("**/contact.data*", (route) => route.fulfill({ status: 503, body: "down" }));
  const form = homeForm(page);
  await fill(form, valid);
  await form.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByText("Failed to send message")).toBeVisible();
  await expect(form.getByLabel("First Name")).toHaveValue("Naledi");
  await expect(page.locator("section#hero")).toBeVisible();
});

test("the home page's contact section sends without leaving the page", async ({ page }) => {
  await page.goto(`${app.base}/`);
  const form = homeForm(page);
  await form.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByText("Please fill in all fields")).toBeVisible();
  await expect(page.getByText("All fields are required to submit your message.")).toBeVisible();
  await fill(form, valid);
  await form.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByText("Message sent successfully!")).toBeVisible();
  await expect(page).toHaveURL(`${app.base}/`);
  await expect(form.getByLabel("First Name")).toHaveValue("");
});

test.describe("before JavaScript has loaded", () => {
  test.use({ javaScriptEnabled: false });

  test("the home form posts to /contact, keeps values on failure and confirms success", async ({ page }) => {
    await page.goto(`${app.base}/`);
    await fill(homeForm(page), { ...valid, Email: "not-an-email" });
    await homeForm(page).getByRole("button", { name: "Send Message" }).click();
    await expect(page).toHaveURL(`${app.base}/contact`);
    await expect(page.getByText("Please enter a valid email address.")).toBeVisible();
    const form = contactForm(page);
    await expect(form.getByLabel("First Name")).toHaveValue("Naledi");
    await expect(form.getByLabel("Message")).toHaveValue("When can we start?");
    await fill(form, { Email: "naledi@example.com" });
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByText("Message sent successfully!")).toBeVisible();
    await expect(contactForm(page).getByLabel("First Name")).toHaveValue("");
  });
});

test("after five messages a visitor is asked to wait, and what they typed stays", async ({ page }) => {
  // Sent so far from this address: Sending (1), home (1), no-JS (1 refused + 1 sent). The limit is 5 hits.
  await page.goto(`${app.base}/contact`);
  const form = contactForm(page);
  let limited = false;
  for (let i = 0; i < 4 && !limited; i++) {
    await fill(form, valid);
    await form.getByRole("button", { name: "Send Message" }).click();
    const toast = page.getByText(/Message sent successfully!|Too many messages/).last();
    await expect(toast).toBeVisible();
    limited = (await toast.textContent())?.includes("Too many messages") ?? false;
    await page
      .getByRole("button", { name: "Dismiss notification" })
      .first()
      .click()
      .catch(() => {});
  }
  expect(limited).toBe(true);
  await expect(form.getByLabel("Message")).toHaveValue("When can we start?");
});
