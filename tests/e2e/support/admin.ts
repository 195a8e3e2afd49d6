import type { Page } from "@playwright/test";
import { expect } from "./test";
import { axe } from "./axe";

export const ADMIN_PASSWORD = process.env.E2E_ADMIN_PASSWORD ?? "e2e-admin-password";

export async function signInAsOwner(page: Page) {
  await page.goto("/admin/login");
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin$/);
}

/**
 * The owner's pages on a phone (390 px) and a laptop (1280 px): nothing wider than the screen,
 * and axe finds nothing.
 */
export async function expectUsableAtPhoneAndLaptop(page: Page, path: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(path);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `${path} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
    const results = await (await axe(page)).analyze();
    expect(
      results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
      `${path} at ${width} px`,
    ).toEqual([]);
  }
}
