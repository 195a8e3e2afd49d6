import { expect, test } from "./support/test";
import { axe } from "./support/axe";
import { membershipsSeed } from "../../app/content/memberships";

test("all twelve tier pages exist, both sets", async ({ request }) => {
  expect(membershipsSeed).toHaveLength(12);
  for (const tier of membershipsSeed) {
    const res = await request.get(`/membership/${tier.slug}`);
    expect(res.status(), tier.slug).toBe(200);
    expect(await res.text()).toContain(tier.name.replace(/&/g, "&amp;"));
  }
});

test("a priced tier links to checkout and back home", async ({ page }) => {
  await page.goto("/membership/style-starter");
  await expect(page.getByText("R150 / month")).toBeVisible();
  await expect(page.getByRole("link", { name: "Choose Plan" })).toHaveAttribute(
    "href",
    /^\/checkout\?type=membership&item=style-starter&price=R\d+$/,
  );
  await expect(page.getByRole("link", { name: "View All Plans" })).toHaveAttribute("href", "/events");
  await expect(page.getByRole("link", { name: /Back to Home/ })).toHaveAttribute("href", "/");
  await expect(page.getByText(/recurring monthly subscription/)).toBeVisible();
});

test("the home page's plans and each tier page offer members a way to /account", async ({ page }) => {
  for (const path of ["/", "/membership/style-starter", "/membership/upcycle-kings-queens"]) {
    await page.goto(path);
    await expect(page.getByText("Already a member?"), path).toBeVisible();
    await expect(page.getByRole("link", { name: "Manage your membership" }), path).toHaveAttribute("href", "/account");
  }
  await page.getByRole("link", { name: "Manage your membership" }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole("button", { name: "Email me a sign-in link" })).toBeVisible();
});

test("the Contact Us tier opens a mail link with a preset subject", async ({ page }) => {
  await page.goto("/membership/upcycle-kings-queens");
  await expect(page.getByRole("link", { name: "Contact Us" })).toHaveAttribute(
    "href",
    /^mailto:[^?]+\?subject=Upcycle%20Kings%20and%20Queens%20Membership%20Enquiry$/,
  );
});

test("unknown tier is a 404", async ({ page }) => {
  const res = await page.goto("/membership/not-a-tier");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Membership Not Found" })).toBeVisible();
});

for (const width of [390, 1280]) {
  test(`axe finds nothing on membership pages at ${width}px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    for (const path of ["/membership/style-starter", "/membership/upcycle-kings-queens", "/membership/not-a-tier"]) {
      await page.goto(path);
      expect((await (await axe(page)).analyze()).violations, path).toEqual([]);
    }
  });
}
