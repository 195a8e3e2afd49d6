import { expect, test } from "./support/test";
import { axe } from "./support/axe";

test("events page lists upcoming events soonest first with Reserve Your Spot links, then Past events", async ({
  page,
}) => {
  await page.goto("/events");
  await expect(page.getByRole("heading", { level: 1, name: "Upcoming Events" })).toBeVisible();
  // The pinned clock is 10 September 2025: sip-style (24 September), then the simulator's demo workshop
  // (10 October, a month after the server's first start), then the undated monthly and to-be-announced events.
  const links = page.getByRole("link", { name: /Reserve Your Spot/ });
  const hrefs = await links.evaluateAll((els) => els.map((e) => e.getAttribute("href")));
  expect(hrefs).toEqual([
    "/tickets/sip-style",
    "/tickets/demo-workshop-try-a-ticket-purchase",
    "/tickets/tablecloth-workshop",
    "/tickets/heritage-radiance",
  ]);
  await expect(page.getByRole("heading", { level: 2, name: /Demo workshop: try a ticket purchase/ })).toContainText(
    "Demo",
  );
  // radiance-reset (23 and 30 August) is over: listed under Past events, offered without a purchase.
  const past = page.getByRole("region", { name: "Past events" });
  await expect(past.getByRole("heading", { level: 3 })).toHaveText(["Radiance Reset & Sustainable Style Workshop"]);
  await expect(past.getByRole("link", { name: /Reserve Your Spot/ })).toHaveCount(0);
  await expect(past.getByRole("link", { name: /View Event/ })).toHaveAttribute("href", "/tickets/radiance-reset");
});

test("sip-style shows ticket availability at the pinned clock and a looping carousel", async ({ page }) => {
  await page.goto("/tickets/sip-style");
  await expect(page.getByRole("heading", { level: 1, name: "Sip & Style at Nanas" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Available from 15 September" })).toBeDisabled();
  const buy = page.getByRole("link", { name: /Buy Ticket\s*: Early Bird/ });
  await expect(buy).toHaveAttribute(
    "href",
    /\/checkout\?type=ticket&item=Sip\+%26\+Style\+at\+Nanas\+-\+Early\+Bird&price=R\d+/,
  );
  await expect(page.getByRole("link", { name: "View Events Gallery" })).toHaveAttribute("href", "/events-gallery");
  await expect(page.getByRole("link", { name: /Back to Events/ })).toHaveAttribute("href", "/#events");

  const carousel = page.getByRole("region", { name: /photos/ });
  const visible = () => carousel.getByRole("group").filter({ visible: true }).getAttribute("aria-label");
  expect(await visible()).toBe("Slide 1 of 4");
  await expect.poll(visible, { timeout: 5000 }).toBe("Slide 2 of 4");
  await carousel.focus();
  await page.keyboard.press("ArrowRight");
  expect(await visible()).toBe("Slide 3 of 4");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  expect(await visible()).toBe("Slide 4 of 4");
  // Paused while focused: it stays put.
  await page.waitForTimeout(3500);
  expect(await visible()).toBe("Slide 4 of 4");
});

test("heritage-radiance has no purchase; radiance-reset shows its gallery button", async ({ page }) => {
  await page.goto("/tickets/heritage-radiance");
  await expect(page.getByRole("heading", { name: "Tickets Coming Soon" })).toBeVisible();
  await expect(page.getByText("Venue to be announced").first()).toBeVisible();
  await expect(page.getByRole("link", { name: /Buy Ticket/ })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "View Events Gallery" })).toHaveCount(0);
  await page.goto("/tickets/radiance-reset");
  await expect(page.getByRole("link", { name: "View Events Gallery" })).toBeVisible();
});

test("unknown event is a 404 with Return Home; tablecloth id goes to the workshop", async ({ page }) => {
  const res = await page.goto("/tickets/nope");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Event Not Found" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Return Home" })).toHaveAttribute("href", "/");
  await page.goto("/tickets/tablecloth-workshop");
  await expect(page).toHaveURL(/\/workshop\/tablecloth-skirt$/);
});

test("workshop page has 5 photos and the join button", async ({ page }) => {
  await page.goto("/workshop/tablecloth-skirt");
  await expect(page.getByRole("button", { name: /Show photo/ })).toHaveCount(5);
  await expect(page.getByText("Maximum 8 participants")).toBeVisible();
  await expect(page.getByRole("link", { name: "Join Monthly Workshop - R250" })).toHaveAttribute(
    "href",
    "/checkout?type=workshop&item=Transform+Tablecloth+into+Wrap+Around+Skirt&price=R250",
  );
});

for (const width of [390, 1280]) {
  test(`axe finds nothing on event routes at ${width}px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    for (const path of [
      "/events",
      "/tickets/sip-style",
      "/tickets/heritage-radiance",
      "/tickets/radiance-reset",
      "/tickets/nope",
      "/workshop/tablecloth-skirt",
    ]) {
      await page.goto(path);
      const results = await (await axe(page)).analyze();
      expect(results.violations, path).toEqual([]);
    }
  });
}
