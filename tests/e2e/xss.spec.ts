import { expect, test } from "./support/test";
import { startInstance, type Instance } from "./support/instances";

// What a visitor sends and the owner later reads is shown as text: markup in it never runs, neither on
// the visitor's side nor in the dashboard. An instance of its own keeps the contact rate limit and the
// dashboard's tables free of other tests' rows (five payloads: the contact limit per visitor).
const PASSWORD = "instance-admin-password";
const PAYLOADS = [
  `<script>window.__xss = "script"</script>`,
  `<img src=x onerror="window.__xss='img'">`,
  `"><svg onload="window.__xss='svg'">`,
  `javascript:window.__xss='href'`,
  `</textarea><iframe srcdoc="<script>parent.__xss='iframe'</script>">`,
];

let app: Instance;
test.beforeAll(async () => {
  app = await startInstance({ ADMIN_PASSWORD: PASSWORD });
});
test.afterAll(async () => {
  await app?.stop();
});

test("script and markup sent through the contact and checkout forms never run, for the visitor or in the dashboard", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });

  for (const [i, payload] of PAYLOADS.entries()) {
    await page.goto(`${app.base}/contact`);
    const form = page
      .locator("form")
      .filter({ has: page.getByLabel("Message") })
      .first();
    await form.getByLabel("First Name").fill(`Name ${payload}`);
    await form.getByLabel("Last Name").fill(`Surname${i}`);
    await form.getByLabel("Email").fill(`xss${i}@example.com`);
    await form.getByLabel("Subject").fill(`Subject ${payload}`);
    await form.getByLabel("Message").fill(`Message ${payload}`);
    await form.getByRole("button", { name: /send/i }).click();
    await expect(page.getByText("Message sent successfully!")).toBeVisible();
  }

  // A buyer's name is shown in Recent Checkouts.
  const item = "Test Product";
  const ordered = await fetch(`${app.base}/checkout?${new URLSearchParams({ type: "product", item })}`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: app.base, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      type: "product",
      item,
      firstName: PAYLOADS[1]!,
      lastName: PAYLOADS[2]!,
      email: "buyer@example.com",
      phone: "0821234567",
      address: PAYLOADS[0]!,
    }),
  });
  expect(ordered.status).toBe(302);

  await page.goto(`${app.base}/admin/login`);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  const contacts = page.getByRole("region", { name: "Contact Form Submissions" });
  for (const payload of PAYLOADS) {
    // The list is a table on a laptop and cards on a phone: one of the two is shown.
    await expect(contacts.getByText(`Message ${payload}`, { exact: true }).filter({ visible: true })).toBeVisible();
  }
  const checkouts = page.getByRole("region", { name: "Recent Checkouts" });
  await expect(checkouts.getByText(`${PAYLOADS[1]} ${PAYLOADS[2]}`).filter({ visible: true })).toBeVisible();
  // Give any injected handler the chance to run before checking that none did.
  await page.waitForTimeout(500);
  expect(await page.evaluate(() => (window as unknown as { __xss?: string }).__xss)).toBeUndefined();
  expect(await page.locator("iframe, svg[onload], img[onerror]").count()).toBe(0);
  expect(dialogs).toEqual([]);
});
