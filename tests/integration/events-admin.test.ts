import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sitemapPaths } from "~/catalog/sitemap.server";
import type { DatabaseHandle } from "~/db/client.server";
import { adminAuditLog, events, orderLines, ticketOptions } from "~/db/schema";
import { listEventsForAdmin } from "~/events/event-admin.server";
import { listEventsByPhase } from "~/events/events.server";
import { fixedClock } from "~/lib/clock";
import { convertHolds } from "~/stock/hold-sales.server";
import { findSellable } from "~/orders/sellable.server";
import * as editRoute from "~/routes/admin/event-edit";
import * as listRoute from "~/routes/admin/events";
import * as ticketsRoute from "~/routes/tickets";
import { checkout, orderIdFrom } from "../support/checkout";
import { createTestDatabase, testContext } from "../support/test-db";
import { signedInOwner } from "../support/owner";
import { routeAnswer } from "../support/route-answer";

const BASE = "http://localhost:3000";
const NOW = new Date("2025-09-10T10:00:00+02:00");

let handle: DatabaseHandle;
let cookie: string;
beforeAll(async () => {
  handle = await createTestDatabase();
  cookie = await signedInOwner(handle);
});
afterAll(() => handle?.close());

const call = (fn: (args: never) => unknown, request: Request, params: Record<string, string> = {}) =>
  routeAnswer(() => fn({ request, params, context: testContext(handle, { clock: fixedClock(NOW) }) } as never));

/** The edit form posted as the browser does (multipart: it has a PhotoPicker). */
function post(path: string, fields: Record<string, string | string[]>) {
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) body.append(k, one);
  return new Request(`${BASE}${path}`, { method: "POST", body, headers: { Origin: BASE, Cookie: cookie } });
}

const workshop = {
  title: "Indigo Dye Workshop",
  starts: "2025-10-18T10:00",
  ends: "2025-10-18T13:00",
  location: "Honey Bee Studio, Johannesburg",
  focus: "Natural dyes, upcycling",
  description: "Dye a pre-loved shirt with indigo.",
  includes: "Apron\n\n  Indigo vat  \nTea",
  photoSrc: "/images/events/sip-style-1.svg",
  photoAlt: "Women at a styling afternoon",
  "option.0.type": "Workshop Seat",
  "option.0.price": "300",
  "option.0.capacity": "2",
  "option.0.from": "",
  "option.0.until": "2025-10-17T18:00",
};

const eventRow = async (id: string) => (await handle.db.select().from(events).where(eq(events.id, id)))[0];
const optionsOf = (id: string) =>
  handle.db.select().from(ticketOptions).where(eq(ticketOptions.eventId, id)).orderBy(ticketOptions.sortOrder);
const auditCount = async () => (await handle.db.select().from(adminAuditLog)).length;

async function snapshot() {
  return {
    events: await handle.db.select().from(events).orderBy(events.id),
    options: await handle.db.select().from(ticketOptions).orderBy(ticketOptions.id),
    audit: await auditCount(),
  };
}

async function buyAndPay(item: string) {
  const result = await checkout(handle, "ticket", item, { clock: fixedClock(NOW) });
  const orderId = orderIdFrom(result);
  await handle.db.transaction((tx) => convertHolds(tx, orderId, NOW));
  return orderId;
}

describe("creating an event", () => {
  it("stores the event with texts derived from Starts and Ends, its option, and an audit entry", async () => {
    const result = await call(editRoute.action, post("/admin/events/new", workshop));
    expect(result.status).toBe(302);
    expect(result.location).toBe("/admin/events/indigo-dye-workshop");
    const row = await eventRow("indigo-dye-workshop");
    expect(row).toMatchObject({
      title: "Indigo Dye Workshop",
      dates: "18 October 2025",
      timeText: "10:00 - 13:00",
      startsAt: new Date("2025-10-18T08:00:00Z"),
      endsAt: new Date("2025-10-18T11:00:00Z"),
      includes: ["Apron", "Indigo vat", "Tea"],
      priceText: "R300",
      participants: "Limited to 2 participants",
      images: ["/images/events/sip-style-1.svg"],
      imageAlts: ["Women at a styling afternoon"],
      ticketsOnSale: true,
      demo: false,
      archived: false,
    });
    expect(await optionsOf("indigo-dye-workshop")).toMatchObject([
      {
        type: "Workshop Seat",
        priceCents: 30000,
        capacity: 2,
        availableFrom: null,
        availableUntil: new Date("2025-10-17T16:00:00Z"),
      },
    ]);
    const [entry] = await handle.db
      .select()
      .from(adminAuditLog)
      .where(eq(adminAuditLog.entityId, "indigo-dye-workshop"));
    expect(entry).toMatchObject({ action: "event.create", summary: "Added Indigo Dye Workshop" });
  });

  it("refuses a title whose address is taken, with a field message, and changes nothing", async () => {
    const before = await snapshot();
    const result = await call(
      editRoute.action,
      post("/admin/events/new", { ...workshop, title: "Indigo  dye workshop!" }),
    );
    expect(result.status).toBe(400);
    expect((result.body.fieldErrors as Record<string, string>).title).toMatch(
      /\/tickets\/indigo-dye-workshop already exists/,
    );
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    [{ ends: "2025-10-18T09:00" }, "ends", "Ends must be after Starts."],
    [{ starts: "2025-02-30T10:00" }, "starts", "Starts must be a date and time, e.g. 2025-10-10 10:00."],
    [{ starts: "", ends: "2025-10-18T13:00" }, "starts", "Enter Starts too, or leave Ends empty."],
    [{ title: "  " }, "title", "Title is required"],
    [{ "option.0.until": "2025-10-19T10:00" }, "option.0.until", "On sale until can't be after the event Ends."],
    [
      { "option.0.from": "2025-10-01T10:00", "option.0.until": "2025-09-30T10:00" },
      "option.0.until",
      "On sale until must be after On sale from.",
    ],
    [{ "option.0.price": "free" }, "option.0.price", "Price must be an amount in rand, e.g. 650, 650,00 or 1 500,50."],
    [
      { "option.0.capacity": "0" },
      "option.0.capacity",
      "Capacity must be a whole number from 1 to 100000, or empty for no limit.",
    ],
    [{ "option.0.type": "" }, "option.0.type", "Ticket type is required"],
    [
      { "option.1.type": "workshop seat", "option.1.price": "10" },
      "option.1.type",
      "Another ticket option of this event has this Ticket type.",
    ],
    [{ photoAlt: "" }, "photos.0.alt", "Alt text is required"],
    // PostgreSQL refuses NUL in text and jsonb: a message, not a server error.
    [{ description: "Dye\u0000 a shirt" }, "description", "Description contains characters we cannot store."],
    [{ "option.0.type": "Seat\u0000" }, "option.0.type", "Ticket type contains characters we cannot store."],
    [{ photoAlt: "A\u0000" }, "photos.0.alt", "Alt text must be one line of text."],
  ])("refuses %j with a message on %s, storing nothing", async (change, field, message) => {
    const before = await snapshot();
    const result = await call(
      editRoute.action,
      post("/admin/events/new", { ...workshop, title: "Another Workshop", ...change }),
    );
    expect(result.status).toBe(400);
    expect((result.body.fieldErrors as Record<string, string>)[field]).toBe(message);
    expect(await snapshot()).toEqual(before);
  });

  it("leaves out the blank option row, so an event may start with no options", async () => {
    const blank = {
      ...workshop,
      title: "Talk Without Tickets",
      "option.0.type": "",
      "option.0.price": "",
      "option.0.capacity": "",
      "option.0.until": "",
      starts: "",
      ends: "",
    };
    const result = await call(editRoute.action, post("/admin/events/new", blank));
    expect(result.status).toBe(302);
    expect(await eventRow("talk-without-tickets")).toMatchObject({
      dates: "Date to be announced",
      timeText: null,
      priceText: "Price to be announced",
    });
    expect(await optionsOf("talk-without-tickets")).toEqual([]);
  });
});

describe("selling and editing an event's options", () => {
  it("sells until capacity, then the ticket page says Sold Out with no checkout link and checkout refuses", async () => {
    await buyAndPay("Indigo Dye Workshop - Workshop Seat");
    let page = await call(ticketsRoute.loader, new Request(`${BASE}/tickets/indigo-dye-workshop`), {
      eventId: "indigo-dye-workshop",
    });
    expect((page.body.options as { status: string }[])[0]!.status).toBe("available");
    await buyAndPay("Indigo Dye Workshop - Workshop Seat");
    page = await call(ticketsRoute.loader, new Request(`${BASE}/tickets/indigo-dye-workshop`), {
      eventId: "indigo-dye-workshop",
    });
    expect(page.body.options).toMatchObject([{ type: "Workshop Seat", status: "sold-out", label: "Sold Out" }]);
    expect(await findSellable(handle.db, "ticket", "Indigo Dye Workshop - Workshop Seat", NOW)).toEqual({
      ok: false,
      reason: "This ticket is sold out.",
    });
    const list = await call(listRoute.loader, new Request(`${BASE}/admin/events`, { headers: { Cookie: cookie } }));
    const listed = (list.body.upcoming as Awaited<ReturnType<typeof listEventsForAdmin>>["upcoming"]).find(
      (e) => e.id === "indigo-dye-workshop",
    );
    expect(listed?.options).toMatchObject([{ type: "Workshop Seat", sold: 2, held: 0, left: 0 }]);
  });

  it("refuses a capacity below the seats sold, and removing an option with orders, with field messages", async () => {
    const [seat] = await optionsOf("indigo-dye-workshop");
    const before = await snapshot();
    const lower = await call(
      editRoute.action,
      post("/admin/events/indigo-dye-workshop", {
        ...workshop,
        "option.0.id": String(seat!.id),
        "option.0.capacity": "1",
      }),
      { id: "indigo-dye-workshop" },
    );
    expect(lower.status).toBe(400);
    expect((lower.body.fieldErrors as Record<string, string>)["option.0.capacity"]).toBe(
      "2 seats are sold or held: Capacity can't be lower than 2.",
    );
    const removal = await call(
      editRoute.action,
      post("/admin/events/indigo-dye-workshop", {
        ...workshop,
        "option.0.id": String(seat!.id),
        "option.0.remove": "on",
      }),
      { id: "indigo-dye-workshop" },
    );
    expect(removal.status).toBe(400);
    expect((removal.body.fieldErrors as Record<string, string>)["option.0.remove"]).toBe(
      "Workshop Seat has 2 orders, so it can't be removed. Set On sale until to stop selling it.",
    );
    expect(await snapshot()).toEqual(before);
  });

  it("updates the event, edits the sold option, adds one and removes one that has no sales, with one audit entry", async () => {
    const [seat] = await optionsOf("indigo-dye-workshop");
    const add = { "option.1.type": "Spare Seat", "option.1.price": "250.50", "option.1.capacity": "" };
    expect(
      (
        await call(
          editRoute.action,
          post("/admin/events/indigo-dye-workshop", { ...workshop, "option.0.id": String(seat!.id), ...add }),
          { id: "indigo-dye-workshop" },
        )
      ).status,
    ).toBe(302);
    const [, spare] = await optionsOf("indigo-dye-workshop");
    expect(spare).toMatchObject({ type: "Spare Seat", priceCents: 25050, capacity: null });
    const audits = await auditCount();

    const edit = {
      ...workshop,
      title: "Indigo Dye Morning",
      starts: "2025-10-18T09:00",
      "option.0.id": String(seat!.id),
      "option.0.capacity": "4",
      "option.0.type": "Seat",
      "option.1.id": String(spare!.id),
      "option.1.type": "Spare Seat",
      "option.1.price": "250.50",
      "option.1.remove": "on",
    };
    const result = await call(editRoute.action, post("/admin/events/indigo-dye-workshop", edit), {
      id: "indigo-dye-workshop",
    });
    expect(result.status).toBe(302);
    // The address stays: links already shared keep working.
    expect(result.location).toBe("/admin/events/indigo-dye-workshop");
    expect(await eventRow("indigo-dye-workshop")).toMatchObject({
      title: "Indigo Dye Morning",
      timeText: "09:00 - 13:00",
      participants: "Limited to 4 participants",
      priceText: "R300",
    });
    expect(await optionsOf("indigo-dye-workshop")).toMatchObject([{ id: seat!.id, type: "Seat", capacity: 4 }]);
    const entries = await handle.db.select().from(adminAuditLog).where(eq(adminAuditLog.action, "event.update"));
    expect(await auditCount()).toBe(audits + 1);
    expect(entries.at(-1)).toMatchObject({
      summary: "Changed title, timeText, startsAt, priceText, participants, options of Indigo Dye Morning",
    });
    // Checkout now sells it under its new names, with the two seats sold still counted.
    const sellable = await findSellable(handle.db, "ticket", "Indigo Dye Morning - Seat", NOW);
    expect(sellable).toMatchObject({ ok: true, item: { stock: { limit: 2 } } });
  });

  it("refuses an option id of another event", async () => {
    const [sip] = await optionsOf("sip-style");
    const before = await snapshot();
    const result = await call(
      editRoute.action,
      post("/admin/events/indigo-dye-workshop", {
        ...workshop,
        title: "Indigo Dye Morning",
        "option.0.id": String(sip!.id),
      }),
      { id: "indigo-dye-workshop" },
    );
    expect(result.status).toBe(400);
    expect((result.body.fieldErrors as Record<string, string>)["option.0.type"]).toBe(
      "This ticket option no longer exists. Reload the page.",
    );
    expect(await snapshot()).toEqual(before);
  });
});

describe("editing a seeded event", () => {
  it("saving the form as loaded keeps every date to the second and changes only what was typed", async () => {
    const loaded = await call(
      editRoute.loader,
      new Request(`${BASE}/admin/events/sip-style`, { headers: { Cookie: cookie } }),
      { id: "sip-style" },
    );
    const values = loaded.body.values as {
      photos: { src: string }[];
      rows: Record<string, string | boolean>[];
    } & Record<string, unknown>;
    const fields: Record<string, string | string[]> = {
      ...Object.fromEntries(
        ["title", "starts", "ends", "location", "focus", "description", "includes"].map((k) => [k, String(values[k])]),
      ),
      photoSrc: values.photos.map((p) => p.src),
      // The seed has no alt texts; a save asks for them.
      photoAlt: values.photos.map((_, i) => `Sip and style photo ${i + 1}`),
    };
    values.rows.forEach((row, i) => {
      for (const f of ["id", "type", "price", "capacity", "from", "until"]) fields[`option.${i}.${f}`] = String(row[f]);
    });
    const before = await eventRow("sip-style");
    const optionsBefore = await optionsOf("sip-style");
    const result = await call(editRoute.action, post("/admin/events/sip-style", fields), { id: "sip-style" });
    expect(result.status).toBe(302);
    expect(await optionsOf("sip-style")).toEqual(optionsBefore);
    expect(optionsBefore[0]!.availableUntil).toEqual(new Date("2025-09-14T23:59:59+02:00"));
    const after = await eventRow("sip-style");
    expect({ ...after, imageAlts: [], updatedAt: null }).toEqual({ ...before, imageAlts: [], updatedAt: null });
    const [entry] = await handle.db.select().from(adminAuditLog).where(eq(adminAuditLog.entityId, "sip-style"));
    expect(entry).toMatchObject({ action: "event.update", summary: "Changed imageAlts of Sip & Style at Nanas" });
  });
});

describe("removing an event", () => {
  it("archives an event with orders: hidden from every public page and from checkout", async () => {
    const result = await call(editRoute.action, post("/admin/events/indigo-dye-workshop", { intent: "delete" }), {
      id: "indigo-dye-workshop",
    });
    expect(result.status).toBe(302);
    expect(await eventRow("indigo-dye-workshop")).toMatchObject({ archived: true });
    expect(await handle.db.select().from(orderLines)).toHaveLength(2);
    const { upcoming, past } = await listEventsByPhase(handle.db, NOW);
    expect([...upcoming, ...past].map((e) => e.id)).not.toContain("indigo-dye-workshop");
    const page = await call(ticketsRoute.loader, new Request(`${BASE}/tickets/indigo-dye-workshop`), {
      eventId: "indigo-dye-workshop",
    });
    expect(page.status).toBe(404);
    expect(await findSellable(handle.db, "ticket", "Indigo Dye Morning - Seat", NOW)).toMatchObject({ ok: false });
    expect(await sitemapPaths(handle.db)).not.toContain("/tickets/indigo-dye-workshop");
    const edit = await call(
      editRoute.loader,
      new Request(`${BASE}/admin/events/indigo-dye-workshop`, { headers: { Cookie: cookie } }),
      { id: "indigo-dye-workshop" },
    );
    expect(edit.status).toBe(404);
    const [entry] = await handle.db.select().from(adminAuditLog).where(eq(adminAuditLog.action, "event.archive"));
    expect(entry?.summary).toBe("Archived Indigo Dye Morning (kept for its 2 orders)");
  });

  it("deletes an event without orders, with its options", async () => {
    const result = await call(editRoute.action, post("/admin/events/talk-without-tickets", { intent: "delete" }), {
      id: "talk-without-tickets",
    });
    expect(result.status).toBe(302);
    expect(await eventRow("talk-without-tickets")).toBeUndefined();
    expect(await handle.db.select().from(adminAuditLog).where(eq(adminAuditLog.action, "event.delete"))).toHaveLength(
      1,
    );
  });
});

describe("upcoming and past", () => {
  it("lists upcoming events soonest first (undated after), then past ones latest first, on the site and in the admin", async () => {
    expect(
      (
        await call(
          editRoute.action,
          post("/admin/events/new", {
            ...workshop,
            title: "Early Sewing Circle",
            starts: "2025-09-12T10:00",
            ends: "2025-09-12T12:00",
            "option.0.until": "",
          }),
        )
      ).status,
    ).toBe(302);
    const { upcoming, past } = await listEventsByPhase(handle.db, NOW);
    expect(upcoming.map((e) => e.id)).toEqual([
      "early-sewing-circle",
      "sip-style",
      "tablecloth-workshop",
      "heritage-radiance",
    ]);
    expect(past.map((e) => e.id)).toEqual(["radiance-reset"]);
    const admin = await listEventsForAdmin(handle.db, NOW);
    expect(admin.upcoming.map((e) => e.id)).toEqual(upcoming.map((e) => e.id));
    expect(admin.past.map((e) => e.id)).toEqual(["radiance-reset"]);
    // Once it has ended it moves to the past, first there as the latest.
    const later = await listEventsByPhase(handle.db, new Date("2025-09-12T12:00:00+02:00"));
    expect(later.past.map((e) => e.id)).toEqual(["early-sewing-circle", "radiance-reset"]);
    expect(await sitemapPaths(handle.db)).toEqual(
      expect.arrayContaining(["/tickets/early-sewing-circle", "/tickets/sip-style"]),
    );
    expect(await sitemapPaths(handle.db)).not.toContain("/tickets/tablecloth-workshop");
  });

  it("the admin pages answer 404 for an unknown or malformed event", async () => {
    for (const id of ["no-such-event", "Bad%20Id", "x".repeat(300)]) {
      const result = await call(
        editRoute.loader,
        new Request(`${BASE}/admin/events/${id}`, { headers: { Cookie: cookie } }),
        { id },
      );
      expect(result.status).toBe(404);
    }
  });
});
