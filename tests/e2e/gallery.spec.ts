import { expect, test } from "./support/test";
import { axe } from "./support/axe";

test("gallery shows 12 photos, lazy below the first row; the lightbox closes with Escape and Close", async ({
  page,
}) => {
  await page.goto("/events-gallery");
  const thumbs = page.getByRole("button", { name: /Open Workshop moment/ });
  await expect(thumbs).toHaveCount(12);
  // The first row is on a phone's first screen, so it loads at once; the rest wait for scrolling.
  await expect(page.locator("main li img[loading=eager]")).toHaveCount(2);
  await expect(page.locator("main li img[loading=lazy]")).toHaveCount(10);
  await thumbs.nth(2).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("img", { name: "Workshop moment 3 of 12" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(thumbs.nth(2)).toBeFocused();
  await thumbs.nth(4).click();
  await expect(dialog.getByRole("button", { name: "Close" })).toBeFocused();
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
  await expect(thumbs.nth(4)).toBeFocused();
  await expect(page.getByRole("link", { name: "View Upcoming Events" })).toHaveAttribute("href", "/events");
  await expect(page.getByRole("link", { name: /Back/ }).first()).toHaveAttribute("href", "/");
});

for (const width of [390, 1280]) {
  test(`axe finds nothing on the gallery at ${width}px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/events-gallery");
    expect((await (await axe(page)).analyze()).violations).toEqual([]);
  });
}
