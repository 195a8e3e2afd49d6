import fs from "node:fs";
import path from "node:path";
import { desc, eq, sql } from "drizzle-orm";
import { membershipsSeed } from "~/content/memberships";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadHome } from "~/home/home.server";
import { sitemapPaths } from "~/catalog/sitemap.server";
import type { DatabaseHandle } from "~/db/client.server";
import { adminAuditLog, membershipTiers, orders } from "~/db/schema";
import * as tiersRoute from "~/routes/admin/memberships";
import * as membershipRoute from "~/routes/membership";
import { createTestDatabase } from "../support/test-db";
import { call, get, post, toastOf } from "../support/admin-content";
import { checkout } from "../support/checkout";
import { signedInOwner } from "../support/owner";

let handle: DatabaseHandle;
let cookie: string;
beforeAll(async () => {
  handle = await createTestDatabase();
  cookie = await signedInOwner(handle);
});
afterAll(() => handle?.close());

const SLUG = "style-starter";
const tier = async (slug = SLUG) =>
  (await handle.db.select().from(membershipTiers).where(eq(membershipTiers.slug, slug)))[0]!;
const form = (overrides: Record<string, string> = {}) => ({
  slug: SLUG,
  name: "The Style Starter Plus",
  price: "175",
  priceText: "",
  description: "Begin your journey.",
  benefits: "Monthly posts\n\n  Art-healing sessions  \nA warm community focus\nA new benefit",
  sortOrder: "1",
  visible: "on",
  percentOffEvents: "0",
  freeTicketsPerMonth: "0",
  percentOffProducts: "0",
  ...overrides,
});
const save = (fields: Record<string, string>) =>
  call(handle, tiersRoute.action, post("/admin/memberships", fields, cookie));
const tierPage = (slug = SLUG) => call(handle, membershipRoute.loader, get(`/membership/${slug}`), { tier: slug });

describe("membership tiers in the admin", () => {
  it("lists every tier of both sets", async () => {
    const page = await call(handle, tiersRoute.loader, get("/admin/memberships", cookie));
    const tiers = page.body.tiers as { tierSet: string; values: { slug: string } }[];
    expect(tiers.length).toBe((await handle.db.select().from(membershipTiers)).length);
    expect(new Set(tiers.map((t) => t.tierSet))).toEqual(new Set(["newer", "older"]));
  });

  it("an edit shows on the home page and the tier's page, with an audit entry", async () => {
    const answer = await save(form());
    expect(answer.status).toBe(302);
    expect(toastOf(answer)?.title).toBe("The Style Starter Plus saved");
    expect(await tier()).toMatchObject({
      name: "The Style Starter Plus",
      priceCents: 17500,
      priceText: "R175",
      features: ["Monthly posts", "Art-healing sessions", "A warm community focus", "A new benefit"],
      visible: true,
    });
    const home = await loadHome(handle.db, new Date("2025-09-10T10:00:00+02:00"));
    expect(home.tiers.find((t) => t.slug === SLUG)).toMatchObject({
      name: "The Style Starter Plus",
      priceText: "R175",
    });
    expect((await tierPage()).body).toMatchObject({ name: "The Style Starter Plus", priceCents: 17500 });
    const [entry] = await handle.db.select().from(adminAuditLog).orderBy(desc(adminAuditLog.id)).limit(1);
    expect(entry).toMatchObject({
      action: "membership.update",
      entityId: SLUG,
      before: { name: "The Style Starter", priceCents: 15000 },
      after: { name: "The Style Starter Plus", priceCents: 17500 },
    });
  });

  it("a price on request replaces the price; such a plan is not sold", async () => {
    await save(form({ price: "", priceText: "Contact Us" }));
    expect(await tier()).toMatchObject({ priceCents: null, priceText: "Contact Us" });
    const result = await checkout(handle, "membership", SLUG);
    expect(result).not.toBeInstanceOf(Response);
    await save(form());
  });

  it("a hidden tier is gone from home, the sitemap and its page (404), and checkout refuses it", async () => {
    expect(((await checkout(handle, "membership", SLUG)) as Response).status).toBe(302);
    const ordersBefore = (await handle.db.select().from(orders)).length;
    await save(form({ visible: "" }));
    expect((await tier()).visible).toBe(false);
    expect((await loadHome(handle.db, new Date("2025-09-10T10:00:00+02:00"))).tiers.map((t) => t.slug)).not.toContain(
      SLUG,
    );
    expect(await sitemapPaths(handle.db)).not.toContain(`/membership/${SLUG}`);
    expect((await tierPage()).status).toBe(404);
    const refused = await checkout(handle, "membership", SLUG);
    expect(refused).not.toBeInstanceOf(Response);
    const byName = await checkout(handle, "membership", "The Style Starter Plus");
    expect(byName).not.toBeInstanceOf(Response);
    expect((await handle.db.select().from(orders)).length).toBe(ordersBefore);

    await save(form());
    expect((await tierPage()).status).toBe(200);
  });

  it.each([
    ["name", ""],
    ["name", "Two\nlines"],
    ["price", "free"],
    ["price", "0.50"],
    ["benefits", " \n \n"],
    ["benefits", Array.from({ length: 21 }, (_, i) => `Benefit ${i}`).join("\n")],
    ["sortOrder", "first"],
    ["description", "nul \u0000"],
    ["percentOffEvents", ""],
    ["percentOffEvents", "101"],
    ["percentOffEvents", "-5"],
    ["percentOffEvents", "12.5"],
    ["freeTicketsPerMonth", "32"],
    ["freeTicketsPerMonth", "one"],
    ["percentOffProducts", "100%"],
  ])("refuses a bad %s with a field message and changes nothing", async (field, value) => {
    const before = await handle.db.select().from(membershipTiers).orderBy(membershipTiers.slug);
    const answer = await save(form({ [field]: value }));
    expect(answer.status).toBe(400);
    expect((answer.body.fieldErrors as Record<string, string>)[field]).toBeTruthy();
    expect(answer.body.slug).toBe(SLUG);
    expect(await handle.db.select().from(membershipTiers).orderBy(membershipTiers.slug)).toEqual(before);
  });

  it("the seeded tiers keep what their texts promise, in words on their pages", async () => {
    expect(await tier("creative-bee")).toMatchObject({ perkPercentOffEvents: 10, perkFreeTicketsPerMonth: 0 });
    expect(await tier("glow-bee")).toMatchObject({
      perkPercentOffEvents: 0,
      perkFreeTicketsPerMonth: 1,
      perkFreeTicketEvents: ["sip-style"],
    });
    expect(await tier("purpose-bee")).toMatchObject({ perkPercentOffEvents: 0, perkFreeTicketsPerMonth: 0 });
    expect(await tier("upcycle-queen")).toMatchObject({ perkAllEventsFree: true });
    expect(await tier("style-starter")).toMatchObject({ perkAllEventsFree: false, perkPercentOffEvents: 0 });
    expect((await tierPage("glow-bee")).body.perks).toEqual(["1 free ticket a month for Sip & Style at Nanas"]);
    expect((await tierPage("purpose-bee")).body.perks).toEqual([]);
    expect((await tierPage("vip-sustainable-human")).body.perks).toEqual(["All events and workshops free"]);
    expect((await tierPage("creative-healer")).body.perks).toEqual([]);
  });

  it("the migration 'perks3' gives Glow Bee and Purpose Bee the spec's perks, only where the old seed's are left", async () => {
    const file = fs.readdirSync("drizzle").find((f) => /^\d{4}_perks3\.sql$/.test(f))!;
    const statements = fs.readFileSync(path.join("drizzle", file), "utf8").split("--> statement-breakpoint");
    const oldSeed = { perkPercentOffEvents: 10, perkFreeTicketsPerMonth: 1, perkFreeTicketEvents: ["sip-style"] };
    await handle.db
      .update(membershipTiers)
      .set({ ...oldSeed, features: ["Everything in Creative Bee", "One free Sip & Style ticket per month"] })
      .where(eq(membershipTiers.slug, "glow-bee"));
    // The owner had changed Purpose Bee's perks and its text: the migration leaves both alone.
    const owners = { ...oldSeed, perkPercentOffEvents: 15, features: ["Everything in Glow Bee", "Tea with us"] };
    await handle.db.update(membershipTiers).set(owners).where(eq(membershipTiers.slug, "purpose-bee"));
    await handle.db.transaction(async (tx) => {
      for (const statement of statements) await tx.execute(sql.raw(statement));
    });
    expect(await tier("glow-bee")).toMatchObject({
      perkPercentOffEvents: 0,
      perkFreeTicketsPerMonth: 1,
      perkFreeTicketEvents: ["sip-style"],
      features: ["Everything in Starter Bee", "One free Sip & Style ticket per month"],
    });
    expect(await tier("purpose-bee")).toMatchObject(owners);
    // Purpose Bee as the seed made it is given no price perk and its own text.
    await handle.db
      .update(membershipTiers)
      .set({ ...oldSeed, features: ["Everything in Glow Bee", "30-minute monthly one-on-one check-in"] })
      .where(eq(membershipTiers.slug, "purpose-bee"));
    await handle.db.transaction(async (tx) => {
      for (const statement of statements) await tx.execute(sql.raw(statement));
    });
    const seeded = membershipsSeed.find((t) => t.slug === "purpose-bee")!;
    expect(await tier("purpose-bee")).toMatchObject({
      perkPercentOffEvents: 0,
      perkFreeTicketsPerMonth: 0,
      perkFreeTicketEvents: "any",
      features: seeded.features,
    });
  });

  it("the owner sets a tier's perks: percentages, free tickets for chosen events, all events free", async () => {
    // A text field given in `extra` replaces the form's; the ticked events repeat their name.
    const savePairs = (extra: [string, string][]) => {
      const given = new Set(extra.map(([name]) => name));
      const base = Object.entries(form()).filter(([name]) => !given.has(name));
      return call(handle, tiersRoute.action, post("/admin/memberships", [...base, ...extra], cookie));
    };
    const answer = await savePairs([
      ["percentOffEvents", "15"],
      ["freeTicketsPerMonth", "2"],
      ["freeTicketEvents", "sip-style"],
      ["freeTicketEvents", "radiance-reset"],
      ["percentOffProducts", "5"],
    ]);
    expect(answer.status).toBe(302);
    expect(await tier()).toMatchObject({
      perkPercentOffEvents: 15,
      perkFreeTicketsPerMonth: 2,
      perkFreeTicketEvents: ["sip-style", "radiance-reset"],
      perkAllEventsFree: false,
      perkPercentOffProducts: 5,
    });
    const [entry] = await handle.db.select().from(adminAuditLog).orderBy(desc(adminAuditLog.id)).limit(1);
    expect(entry?.after).toMatchObject({ perkPercentOffEvents: 15, perkFreeTicketsPerMonth: 2 });
    const page = await call(handle, tiersRoute.loader, get("/admin/memberships", cookie));
    const listed = (page.body.tiers as { values: { slug: string }; perks: string[] }[]).find(
      (t) => t.values.slug === SLUG,
    );
    expect(listed?.perks).toEqual([
      "2 free tickets a month for Sip & Style at Nanas and Radiance Reset & Sustainable Style Workshop",
      "15% off workshops and events",
      "5% off products",
    ]);

    // Nothing ticked is any event; an unknown event is refused and changes nothing.
    await savePairs([["allEventsFree", "on"]]);
    expect(await tier()).toMatchObject({ perkFreeTicketEvents: "any", perkAllEventsFree: true });
    const before = await tier();
    const refused = await savePairs([["freeTicketEvents", "no-such-event"]]);
    expect(refused.status).toBe(400);
    expect((refused.body.fieldErrors as Record<string, string>).freeTicketEvents).toBe("Choose events from the list.");
    expect(await tier()).toEqual(before);
    await save(form());
  });

  it("an unknown tier is a 404 and nothing is created", async () => {
    const count = (await handle.db.select().from(membershipTiers)).length;
    expect((await save(form({ slug: "no-such-tier" }))).status).toBe(404);
    expect((await save(form({ slug: "../bad" }))).status).toBe(400);
    expect((await handle.db.select().from(membershipTiers)).length).toBe(count);
  });
});
