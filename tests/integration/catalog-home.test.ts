import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventCardAction, loadHome } from "~/catalog/home.server";
import type { DatabaseHandle } from "~/db/client.server";
import { createTestDatabase } from "../setup/test-db";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle.close();
});

describe("home data", () => {
  it("reads four events, the six newer tiers and the two sample posts", async () => {
    const home = await loadHome(handle.db);
    expect(home.events).toHaveLength(4);
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
