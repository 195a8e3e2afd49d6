import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventCardAction, loadHome } from "~/home/home.server";
import type { DatabaseHandle } from "~/db/client.server";
import { createTestDatabase } from "../support/test-db";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle.close();
});

describe("home data", () => {
  it("reads the next upcoming events (soonest first, undated ones after), the six newer tiers and the two sample posts", async () => {
    // 10 September 2025: radiance-reset (August) is over; sip-style (24 September) is next.
    const home = await loadHome(handle.db, new Date("2025-09-10T10:00:00+02:00"));
    expect(home.events.map((e) => e.id)).toEqual(["sip-style", "tablecloth-workshop", "heritage-radiance"]);
    const before = await loadHome(handle.db, new Date("2025-08-01T10:00:00+02:00"));
    expect(before.events.map((e) => e.id)).toEqual([
      "radiance-reset",
      "sip-style",
      "tablecloth-workshop",
      "heritage-radiance",
    ]);
    // Between radiance-reset's two days it is still listed, but no longer sold.
    const between = await loadHome(handle.db, new Date("2025-08-25T10:00:00+02:00"));
    expect(between.events[0]).toMatchObject({
      id: "radiance-reset",
      action: { label: "View Event", href: "/tickets/radiance-reset" },
    });
    expect(between.events[1]).toMatchObject({
      id: "sip-style",
      action: { label: "Reserve Your Spot", href: "/tickets/sip-style" },
    });
    expect(home.tiers.map((t) => t.slug)).toEqual([
      "style-starter",
      "creative-healer",
      "glow-bee-journey",
      "purposeful-bee",
      "upcycle-kings-queens",
      "vip-sustainable-human",
    ]);
    expect(home.posts.map((p) => p.slug)).toEqual(["the-art-of-upcycling", "building-a-capsule-wardrobe"]);
  });

  it("gives the spec's button for each event card", () => {
    expect(eventCardAction("tablecloth-workshop")).toEqual({ label: "Learn More", href: "/workshop/tablecloth-skirt" });
    expect(eventCardAction("heritage-radiance")).toEqual({ label: "Learn More", href: "/tickets/heritage-radiance" });
    expect(eventCardAction("sip-style")).toEqual({ label: "Reserve Your Spot", href: "/tickets/sip-style" });
  });
});
