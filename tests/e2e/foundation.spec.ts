import { expect, test } from "./support/test";

test("an unknown path shows the 404 page with a link home and logs the path", async ({ page }) => {
  const messages: string[] = [];
  page.on("console", (message) => messages.push(message.text()));
  const response = await page.goto("/no/such/page?x=1");
  expect(response?.status()).toBe(404);
  await expect(page.getByText("404", { exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { name: /Oops! Page not found/ })).toBeVisible();
  await expect.poll(() => messages.some((m) => m.includes("/no/such/page"))).toBe(true);
  await page.getByRole("link", { name: "Return to Home" }).click();
  await expect(page).toHaveURL("/");
});

test("/healthz reports the database as ok", async ({ request }) => {
  const response = await request.get("/healthz");
  expect(response.status()).toBe(200);
  expect(await response.json()).toMatchObject({ status: "ok", database: "ok" });
});

test("the footer shows the quick links, contact address, GMT+2 note and 2024 copyright", async ({ page }) => {
  await page.goto("/");
  const footer = page.getByRole("contentinfo");
  for (const [name, href] of [
    ["Products", "/styled-collections"],
    ["Events", "/events"],
    ["About", "/about"],
    ["Contact", "/contact"],
  ]) {
    await expect(footer.getByRole("link", { name, exact: true })).toHaveAttribute("href", href);
  }
  await expect(footer.getByRole("link", { name: /@/ })).toHaveAttribute("href", /^mailto:/);
  await expect(footer).toContainText("GMT+2");
  await expect(footer).toContainText("© 2024");
});
