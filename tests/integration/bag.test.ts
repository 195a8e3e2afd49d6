import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { bags, catalogItems, ticketOptions } from "~/db/schema";
import { bagIdOf } from "~/bag/bag-cookie.server";
import { fixedClock } from "~/lib/clock";
import { isCacheablePage } from "../../server/cacheable-pages";
import { bagBrowser } from "../support/bag";
import { countQueries } from "../support/query-count";
import { createTestDatabase } from "../support/test-db";

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle?.close());

async function itemId(slug: string) {
  const [row] = await handle.db.select().from(catalogItems).where(eq(catalogItems.slug, slug));
  return row!.id;
}

async function workshopOptionId() {
  const [row] = await handle.db.select().from(ticketOptions).where(eq(ticketOptions.eventId, "tablecloth-workshop"));
  return row!.id;
}

describe(`the bag (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("adds, changes and removes lines; the cookie is HttpOnly and random, the count cookie readable", async () => {
    const browser = bagBrowser(handle);
    const empty = await browser.view();
    expect(empty.body.lines).toEqual([]);
    expect(browser.jar.has("hb_bag")).toBe(false);

    const earrings = await itemId("candy-earrings");
    const added = await browser.post({ intent: "add", kind: "catalog", id: String(earrings), quantity: "2" });
    expect(added.status).toBe(302);
    expect(added.location).toBe("/bag");
    const cookies = added.headers.getSetCookie();
    expect(cookies.find((c) => c.startsWith("hb_bag="))).toMatch(/HttpOnly/);
    expect(cookies.find((c) => c.startsWith("hb_bag_n="))).not.toMatch(/HttpOnly/);
    expect(browser.jar.get("hb_bag_n")).toBe("2");
    const token = browser.jar.get("hb_bag")!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only the cookie's hash is stored.
    expect(await handle.db.select().from(bags).where(eq(bags.id, token))).toEqual([]);
    expect(
      await handle.db
        .select()
        .from(bags)
        .where(eq(bags.id, bagIdOf(token))),
    ).toHaveLength(1);

    const seat = await workshopOptionId();
    const inPlace = await browser.post({
      intent: "add",
      kind: "ticket",
      id: String(seat),
      quantity: "2",
      inPlace: "1",
    });
    expect(inPlace.status).toBe(200);
    expect(inPlace.body).toMatchObject({ ok: true, count: 4 });

    // The same item again joins its line.
    await browser.post({ intent: "add", kind: "catalog", id: String(earrings), quantity: "1" });
    let view = await browser.view();
    expect(view.body.lines).toHaveLength(2);
    expect(view.body.lines[0]).toMatchObject({
      name: "Candy Earrings",
      quantity: 3,
      unitPriceCents: 35000,
      problem: null,
    });
    expect(view.body.lines[1]).toMatchObject({ name: "Transform Tablecloth into Wrap Around Skirt", quantity: 2 });
    expect(view.body.lines[1].option).toMatch(/Saturday, 4 October 2025/);
    expect(view.body.subtotalCents).toBe(3 * 35000 + 2 * 25000);

    const lineId = String(view.body.lines[0].id);
    await browser.post({ intent: "set", line: lineId, quantity: "1" });
    view = await browser.view();
    expect(view.body.lines[0].quantity).toBe(1);
    expect(browser.jar.get("hb_bag_n")).toBe("3");

    await browser.post({ intent: "remove", line: lineId });
    view = await browser.view();
    expect(view.body.lines.map((l: { name: string }) => l.name)).toEqual([
      "Transform Tablecloth into Wrap Around Skirt",
    ]);
    expect(browser.jar.get("hb_bag_n")).toBe("2");
  });

  it("marks a line whose item was hidden, archived or sold out, leaves it out of the total and keeps it", async () => {
    const browser = bagBrowser(handle);
    const earrings = await itemId("candy-earrings");
    const seat = await workshopOptionId();
    await browser.post({ intent: "add", kind: "catalog", id: String(earrings), quantity: "1" });
    await browser.post({ intent: "add", kind: "ticket", id: String(seat), quantity: "1" });

    await handle.db.update(catalogItems).set({ visible: false }).where(eq(catalogItems.id, earrings));
    let view = await browser.view();
    expect(view.body.lines[0]).toMatchObject({ name: "Candy Earrings", problem: "No longer sold.", choices: [] });
    expect(view.body.subtotalCents).toBe(25000);

    await handle.db.update(catalogItems).set({ visible: true, archived: true }).where(eq(catalogItems.id, earrings));
    view = await browser.view();
    expect(view.body.lines[0].problem).toBe("No longer sold.");

    await handle.db
      .update(catalogItems)
      .set({ archived: false, stockQuantity: 0 })
      .where(eq(catalogItems.id, earrings));
    view = await browser.view();
    expect(view.body.lines[0].problem).toBe("Candy Earrings is sold out.");
    expect(view.body.lines).toHaveLength(2);
    expect(view.body.subtotalCents).toBe(25000);
    // A sold-out line cannot be raised, only removed.
    const refused = await browser.post({ intent: "set", line: String(view.body.lines[0].id), quantity: "1" });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe("Candy Earrings is sold out. Please remove it from your bag.");
    await handle.db.update(catalogItems).set({ stockQuantity: 10 }).where(eq(catalogItems.id, earrings));
  });

  it("refuses more than is left or more than 10 a line, unknown items, other bags' lines and other sites", async () => {
    const browser = bagBrowser(handle);
    const earrings = await itemId("candy-earrings");
    const tooMany = await browser.post({ intent: "add", kind: "catalog", id: String(earrings), quantity: "11" });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toBe("Please choose a quantity from 1 to 10.");
    await handle.db.update(catalogItems).set({ stockQuantity: 3 }).where(eq(catalogItems.id, earrings));
    const more = await browser.post({ intent: "add", kind: "catalog", id: String(earrings), quantity: "4" });
    expect(more.status).toBe(409);
    expect(more.body.message).toBe("Candy Earrings: at most 3 can go in your bag.");
    await handle.db.update(catalogItems).set({ stockQuantity: 10 }).where(eq(catalogItems.id, earrings));
    const unknown = await browser.post({ intent: "add", kind: "catalog", id: "999999", quantity: "1" });
    expect(unknown.status).toBe(409);
    expect(unknown.body.message).toBe("We could not find that item.");
    expect(browser.jar.has("hb_bag")).toBe(false);

    const other = bagBrowser(handle);
    await other.post({ intent: "add", kind: "catalog", id: String(earrings), quantity: "1" });
    const [theirs] = (await other.view()).body.lines;
    await browser.post({ intent: "add", kind: "catalog", id: String(earrings), quantity: "1" });
    const stolen = await browser.post({ intent: "remove", line: String(theirs.id) });
    expect(stolen.status).toBe(404);
    expect((await other.view()).body.lines).toHaveLength(1);

    const request = new Request("http://localhost/bag", {
      method: "POST",
      headers: { origin: "https://evil.example", cookie: browser.cookieHeader() },
      body: new URLSearchParams({ intent: "remove", line: String((await browser.view()).body.lines[0].id) }),
    });
    const { action } = await import("~/routes/bag");
    const { routeAnswer } = await import("../support/route-answer");
    const { testContext } = await import("../support/test-db");
    const crossSite = await routeAnswer(() =>
      action({ request, context: testContext(handle), params: {} } as unknown as Parameters<typeof action>[0]),
    );
    expect(crossSite.status).toBe(403);
    expect((await browser.view()).body.lines).toHaveLength(1);
  });

  it("forgets a bag unused for 30 days", async () => {
    const browser = bagBrowser(handle);
    await browser.post({ intent: "add", kind: "catalog", id: String(await itemId("candy-earrings")), quantity: "1" });
    const later = bagBrowser(handle, { clock: fixedClock("2025-10-11T10:00:00+02:00") });
    for (const [k, v] of browser.jar) later.jar.set(k, v);
    const view = await later.view();
    expect(view.body.lines).toEqual([]);
    // The count cookie is put right.
    expect(later.jar.get("hb_bag_n")).toBe("0");
    const within = bagBrowser(handle, { clock: fixedClock("2025-10-09T10:00:00+02:00") });
    for (const [k, v] of browser.jar) within.jar.set(k, v);
    expect((await within.view()).body.lines).toHaveLength(1);
  });

  it("a view or a change keeps the bag 30 days more, marking it used at most once an hour", async () => {
    const at = (iso: string) => {
      const visit = bagBrowser(handle, { clock: fixedClock(iso) });
      for (const [k, v] of first.jar) visit.jar.set(k, v);
      return visit;
    };
    const writes = async (run: () => Promise<unknown>) =>
      (await countQueries(handle.db, run)).queries.filter((q) => /^\s*update "bags"/i.test(q)).length;
    const first = bagBrowser(handle, { clock: fixedClock("2025-09-10T10:00:00+02:00") });
    await first.post({ intent: "add", kind: "catalog", id: String(await itemId("candy-earrings")), quantity: "1" });
    const [line] = (await first.view()).body.lines as { id: number }[];
    const stored = async () => {
      const [row] = await handle.db
        .select()
        .from(bags)
        .where(eq(bags.id, bagIdOf(first.jar.get("hb_bag")!)));
      return row!.lastUsedAt.toISOString();
    };
    expect(await writes(() => at("2025-09-10T10:59:00+02:00").view())).toBe(0);
    expect(await stored()).toBe("2025-09-10T08:00:00.000Z");
    expect(await writes(() => at("2025-09-10T11:01:00+02:00").view())).toBe(1);
    expect(await stored()).toBe("2025-09-10T09:01:00.000Z");
    // A change marks it too: 20 days on, then 45 days after the first use it is still there.
    const change = { intent: "set", line: String(line!.id), quantity: "1" };
    expect(await writes(() => at("2025-09-30T10:00:00+02:00").post(change))).toBe(1);
    expect(await writes(() => at("2025-09-30T10:30:00+02:00").post(change))).toBe(0);
    expect((await at("2025-10-25T10:00:00+02:00").view()).body.lines).toHaveLength(1);
    expect((await at("2025-11-30T10:00:00+02:00").view()).body.lines).toEqual([]);
  });

  it("serves public pages from the page cache to a visitor whose only cookies are the bag's", () => {
    expect(isCacheablePage("GET", "/product/candy-earrings", { cookie: "hb_bag=abc; hb_bag_n=2" })).toBe(true);
    expect(isCacheablePage("GET", "/product/candy-earrings", { cookie: "hb_bag=abc; hb_admin=x" })).toBe(false);
    expect(isCacheablePage("GET", "/bag", { cookie: "hb_bag=abc" })).toBe(false);
  });
});
