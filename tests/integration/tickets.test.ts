import { asc, eq } from "drizzle-orm";
import ICAL from "ical.js";
import jsQR from "jsqr";
import { simpleParser } from "mailparser";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import { checkIns, emailOutbox, eventSessions, orderEvents, orders, tickets } from "~/db/schema";
import { deliverPendingEmails } from "~/email/outbox.server";
import { defaultWorkshopSession } from "~/events/sessions.server";
import { fixedClock } from "~/lib/clock";
import { recordPayment } from "~/orders/payment-events.server";
import { runSimulatorIntent } from "~/orders/simulator-actions.server";
import { loader as ticketLoader } from "~/routes/ticket";
import { checkInByCode, syncOfflineScans, undoLastCheckIn } from "~/tickets/check-in.server";
import { TICKET_PAGE_RATE_LIMIT } from "~/tickets/ticket-page.server";
import { isCacheablePage } from "../../server/cacheable-pages";
import { startSmtpSink } from "../fakes/smtp-sink";
import { createTestDatabase, testContext } from "../support/test-db";
import { checkout, orderIdFrom } from "../support/checkout";
import { signedInOwner } from "../support/owner";

const WORKSHOP = "Transform Tablecloth into Wrap Around Skirt";
const NOW = new Date("2025-09-10T10:00:00+02:00");
const DB_NAME = process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite";

let handle: DatabaseHandle;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
beforeAll(async () => {
  handle = await createTestDatabase();
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink?.close();
  await handle?.close();
});

/** Buys one workshop seat through checkout and the simulator's Pay, as a buyer does. */
async function buyWorkshopSeat(email = "thandi@example.com") {
  const id = orderIdFrom(
    await checkout(handle, "workshop", WORKSHOP, {
      fields: {
        firstName: "Thandi",
        lastName: "Mokoena",
        email,
        phone: "+27 82 555 0101",
        address: "12 Jacaranda Street\nMelville",
      },
    }),
  );
  const [order] = await handle.db.select().from(orders).where(eq(orders.id, id));
  await runSimulatorIntent(testContext(handle), order!, "pay");
  const issued = await handle.db.select().from(tickets).where(eq(tickets.orderId, id));
  return { id, issued };
}

describe("the default workshop session: first Saturday of the coming month, 10:00-13:00 SA time", () => {
  it.each([
    ["2025-09-10T10:00:00+02:00", "2025-10-04T08:00:00.000Z"],
    ["2025-09-30T23:30:00+02:00", "2025-10-04T08:00:00.000Z"],
    // 22:30 UTC on 30 September is already 1 October in South Africa.
    ["2025-09-30T22:30:00Z", "2025-11-01T08:00:00.000Z"],
    ["2025-10-02T10:00:00+02:00", "2025-11-01T08:00:00.000Z"],
    ["2025-12-15T09:00:00+02:00", "2026-01-03T08:00:00.000Z"],
    ["2025-12-31T23:59:00+02:00", "2026-01-03T08:00:00.000Z"],
    ["2026-01-20T09:00:00+02:00", "2026-02-07T08:00:00.000Z"],
    ["2026-07-01T09:00:00+02:00", "2026-08-01T08:00:00.000Z"],
  ])("on %s the next session starts %s", (now, start) => {
    const session = defaultWorkshopSession(new Date(now));
    expect(session.startsAt.toISOString()).toBe(start);
    expect(session.startsAt.getUTCDay()).toBe(6);
    expect(session.endsAt.getTime() - session.startsAt.getTime()).toBe(3 * 3_600_000);
  });
});

describe(`tickets for a paid workshop seat (${DB_NAME})`, () => {
  it("issues one ticket per seat with a 144-bit code, once, for the session its seat was held for", async () => {
    const { id, issued } = await buyWorkshopSeat();
    expect(issued).toHaveLength(1);
    const [ticket] = issued;
    expect(ticket!.code).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(ticket!.shortCode).toMatch(/^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$/);
    expect(Buffer.from(ticket!.code, "base64url")).toHaveLength(18);
    expect(ticket).toMatchObject({ seatNumber: 1, holderName: "Thandi Mokoena", eventId: "tablecloth-workshop" });
    expect(ticket!.sessionStartsAt?.toISOString()).toBe("2025-10-04T08:00:00.000Z");
    expect(ticket!.sessionEndsAt?.toISOString()).toBe("2025-10-04T11:00:00.000Z");

    // A second payment event for the same order (a retried webhook with a new id) issues nothing more.
    const again = await recordPayment(handle.db, {
      event: { eventId: "evt_repeat_tickets", provider: "simulator", eventType: "payment.succeeded", payload: {} },
      orderId: id,
      paymentId: "p_repeat",
      amountCents: 25000,
      now: NOW,
      mail: {
        siteUrl: "http://localhost:3000",
        ownerEmail: "owner@example.test",
        secret: "test-secret-test-secret-test-secret",
      },
    });
    expect(again.outcome).toBe("unchanged");
    expect(await handle.db.select().from(tickets).where(eq(tickets.orderId, id))).toHaveLength(1);
    const history = await handle.db.select().from(orderEvents).where(eq(orderEvents.orderId, id));
    expect(history.filter((e) => e.kind === "tickets")).toHaveLength(1);
    expect(history.filter((e) => e.kind === "email")).toHaveLength(2);
    // The payment is written before the tickets, which read the order as paid; their history follows it.
    const lines = await handle.db
      .select()
      .from(orderEvents)
      .where(eq(orderEvents.orderId, id))
      .orderBy(asc(orderEvents.id));
    expect(lines.map((e) => e.kind)).toEqual(["created", "paid", "tickets", "email", "email", "webhook"]);
    // Codes of different tickets differ.
    const second = await buyWorkshopSeat("lerato@example.com");
    expect(second.issued[0]!.code).not.toBe(ticket!.code);
  });

  it("the confirmation reaches SMTP as HTML + text, its inline QR decodes to the ticket page and its .ics parses", async () => {
    await handle.db.update(emailOutbox).set({ status: "sent" });
    const { id, issued } = await buyWorkshopSeat("nomsa@example.com");
    const code = issued[0]!.code;
    const result = await deliverPendingEmails(
      handle.db,
      { smtpUrl: sink.url, from: "Shop <shop@example.test>" },
      undefined,
      () => {},
    );
    expect(result).toEqual({ sent: 2, failed: 0 });
    const raw = sink.messages.find((m) => m.to[0] === "nomsa@example.com")!.raw;
    // skipImageLinks keeps the HTML's cid: references as sent (by default the parser inlines them).
    const mail = await simpleParser(raw, { skipImageLinks: true });
    const [order] = await handle.db.select().from(orders).where(eq(orders.id, id));
    expect(mail.text).toContain(order!.reference);
    expect(mail.text).toContain(code);
    expect(mail.text).toContain(`Door code: ${issued[0]!.shortCode.slice(0, 4)}-${issued[0]!.shortCode.slice(4)}`);
    expect(mail.text).toContain("Saturday, 4 October 2025, 10:00 to 13:00");
    expect(mail.text).toContain("hello@honeybeefashion.co.za");
    expect(mail.html).toContain(order!.reference);
    expect(mail.html).toContain('name="viewport"');
    expect(mail.html).toContain("Honey Bee Studio, Johannesburg");

    const png = mail.attachments.find((a) => a.contentType === "image/png")!;
    expect(png.cid).toBeTruthy();
    expect(mail.html).toContain(`cid:${png.cid}`);
    const image = PNG.sync.read(png.content);
    const decoded = jsQR(new Uint8ClampedArray(image.data), image.width, image.height);
    expect(decoded?.data).toBe(`http://localhost:3000/ticket/${code}`);

    const ics = mail.attachments.find((a) => a.filename === "event.ics")!;
    const calendar = new ICAL.Component(ICAL.parse(ics.content.toString("utf8")));
    const vevent = calendar.getFirstSubcomponent("vevent")!;
    const event = new ICAL.Event(vevent);
    expect(event.uid).toContain(code);
    expect(event.summary).toBe(WORKSHOP);
    expect(event.location).toBe("Honey Bee Studio, Johannesburg");
    expect(event.startDate.toJSDate().toISOString()).toBe("2025-10-04T08:00:00.000Z");
    expect(event.endDate.toJSDate().toISOString()).toBe("2025-10-04T11:00:00.000Z");

    // The owner's notice is HTML + text too.
    const owner = await simpleParser(sink.messages.find((m) => m.to[0] === "owner@example.test")!.raw);
    expect(owner.html).toContain(order!.reference);
    expect(owner.text).toContain("Tickets issued: 1");
  });
});

describe(`check-in at the door (${DB_NAME})`, () => {
  it("a typed code admits once, then says already checked in; a wrong code is not valid; undo lets it in again", async () => {
    const { issued } = await buyWorkshopSeat("sipho@example.com");
    const code = issued[0]!.code;
    const at = new Date("2025-10-04T16:04:00Z");
    expect(await checkInByCode(handle.db, { code, deviceId: "door-a", now: at })).toMatchObject({
      outcome: "admitted",
      holderName: "Thandi Mokoena",
      ticketType: "Monthly Workshop",
    });
    expect(
      await checkInByCode(handle.db, { code, deviceId: "door-b", now: new Date(at.getTime() + 60_000) }),
    ).toMatchObject({ outcome: "already", checkedInAt: at.toISOString() });
    expect(await checkInByCode(handle.db, { code: "not-a-ticket", deviceId: "door-a", now: at })).toEqual({
      outcome: "invalid",
    });
    // A full ticket URL from a scanner works as well as the bare code.
    expect(
      (await checkInByCode(handle.db, { code: `http://localhost:3000/ticket/${code}`, deviceId: "door-a", now: at }))
        .outcome,
    ).toBe("already");

    expect(await undoLastCheckIn(handle.db, "door-b", at)).toBeNull();
    expect(await undoLastCheckIn(handle.db, "door-a", at)).toMatchObject({ holderName: "Thandi Mokoena" });
    expect((await checkInByCode(handle.db, { code, deviceId: "door-a", now: at })).outcome).toBe("admitted");
  });

  it("20 concurrent check-ins of one ticket admit exactly one", async () => {
    const { issued } = await buyWorkshopSeat("ayanda@example.com");
    const code = issued[0]!.code;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        checkInByCode(handle.db, { code, deviceId: `door-${i}`, now: new Date(NOW.getTime() + i) }),
      ),
    );
    expect(results.filter((r) => r.outcome === "admitted")).toHaveLength(1);
    expect(results.filter((r) => r.outcome === "already")).toHaveLength(19);
    const [ticket] = await handle.db.select().from(tickets).where(eq(tickets.code, code));
    const rows = await handle.db.select().from(checkIns).where(eq(checkIns.ticketId, ticket!.id));
    expect(rows.filter((r) => r.outcome === "admitted")).toHaveLength(1);
  });

  it("offline scans sync once however often they are sent; a ticket another device admitted is a conflict", async () => {
    const a = (await buyWorkshopSeat("offline-a@example.com")).issued[0]!.code;
    const b = (await buyWorkshopSeat("offline-b@example.com")).issued[0]!.code;
    const scans = [
      { clientScanId: "s1", code: a, scannedAt: "2025-09-10T07:00:00.000Z" },
      { clientScanId: "s2", code: b, scannedAt: "2025-09-10T07:01:00.000Z" },
      { clientScanId: "s3", code: "nonsense", scannedAt: "2025-09-10T07:02:00.000Z" },
    ];
    // Another device admitted b online before this one's offline scan synced.
    expect(
      (await checkInByCode(handle.db, { code: b, deviceId: "door-online", now: new Date("2025-09-10T06:59:00Z") }))
        .outcome,
    ).toBe("admitted");
    const batch = { deviceId: "door-offline", eventId: "tablecloth-workshop", deviceNow: NOW.toISOString(), scans };
    const first = await syncOfflineScans(handle.db, batch, NOW);
    expect(first.map((r) => r.outcome)).toEqual(["admitted", "conflict", "invalid"]);
    const [again, concurrent] = await Promise.all([
      syncOfflineScans(handle.db, batch, NOW),
      syncOfflineScans(handle.db, batch, NOW),
    ]);
    expect(again.map((r) => r.outcome)).toEqual(["admitted", "conflict", "invalid"]);
    expect(concurrent.map((r) => r.outcome)).toEqual(["admitted", "conflict", "invalid"]);
    const rows = await handle.db.select().from(checkIns).where(eq(checkIns.deviceId, "door-offline"));
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.offline)).toBe(true);
    const [ticketA] = await handle.db.select().from(tickets).where(eq(tickets.code, a));
    expect(ticketA).toMatchObject({ checkedInDevice: "door-offline" });
    expect(ticketA!.checkedInAt?.toISOString()).toBe("2025-09-10T07:00:00.000Z");
  });
});

describe(`the ticket page /ticket/{code} (${DB_NAME})`, () => {
  const call = (code: string, clientIp: string) =>
    ticketLoader({
      params: { code },
      context: testContext(handle, { clientIp }),
      request: new Request(`http://localhost/ticket/${code}`),
    } as never) as unknown as Promise<{
      data: { status: string; ticket?: Record<string, unknown> };
      init?: ResponseInit;
    }>;

  it("shows the ticket, answers 404 for a wrong code, is never cached, and is rate-limited per address", async () => {
    const code = (await buyWorkshopSeat("page@example.com")).issued[0]!.code;
    const shown = await call(code, "198.51.100.1");
    expect(shown.data.status).toBe("ok");
    expect(shown.data.ticket).toMatchObject({
      eventTitle: WORKSHOP,
      holderName: "Thandi Mokoena",
      seatNumber: 1,
      when: "Saturday, 4 October 2025, 10:00 to 13:00",
      location: "Honey Bee Studio, Johannesburg",
    });
    expect(String(shown.data.ticket!.qrSvg)).toMatch(/^<svg/);
    expect(new Headers(shown.init?.headers).get("Cache-Control")).toBe("private, no-store");
    expect((await call("AAAAAAAAAAAAAAAAAAAAAAAA", "198.51.100.1")).init?.status).toBe(404);
    expect(isCacheablePage("GET", `/ticket/${code}`, {})).toBe(false);

    // An address may look up 30 codes in ten minutes: the 30th still shows the ticket, the 31st is refused.
    for (let i = 1; i < TICKET_PAGE_RATE_LIMIT.limit; i++)
      expect((await call("wrong", "198.51.100.2")).init?.status).toBe(404);
    expect((await call(code, "198.51.100.2")).data.status).toBe("ok");
    const limited = await call(code, "198.51.100.2");
    expect(limited.init?.status).toBe(429);
    expect(limited.data).toEqual({ status: "limited" });
    // Another address is not affected.
    expect((await call(code, "198.51.100.3")).data.status).toBe("ok");
  });
});

describe("an owner's session date replaces the default", () => {
  it("the workshop sells seats for the next session the owner set", async () => {
    const { addEventSession } = await import("~/events/sessions.server");
    await addEventSession(
      handle.db,
      "tablecloth-workshop",
      { date: "2025-09-20", start: "09:00", end: "12:00", capacity: "2" },
      NOW,
    );
    const clock = fixedClock(NOW);
    const ids = [];
    for (const email of ["s1@example.com", "s2@example.com"]) {
      ids.push(
        orderIdFrom(
          await checkout(handle, "workshop", WORKSHOP, {
            clock,
            fields: { firstName: "Zola", lastName: "Dube", email, phone: "+27 82 555 0101", address: "Melville" },
          }),
        ),
      );
    }
    const third = await checkout(handle, "workshop", WORKSHOP, { clock });
    expect(third).toMatchObject({ toast: { description: "The workshop on Saturday, 20 September 2025 is full." } });
    const [order] = await handle.db.select().from(orders).where(eq(orders.id, ids[0]!));
    await runSimulatorIntent(testContext(handle), order!, "pay");
    const [ticket] = await handle.db.select().from(tickets).where(eq(tickets.orderId, ids[0]!));
    expect(ticket!.sessionStartsAt?.toISOString()).toBe("2025-09-20T07:00:00.000Z");
    expect(ticket!.sessionEndsAt?.toISOString()).toBe("2025-09-20T10:00:00.000Z");
    // The tests below buy seats of this same session: give it the option's 8 seats again.
    await handle.db
      .update(eventSessions)
      .set({ capacity: null })
      .where(eq(eventSessions.eventId, "tablecloth-workshop"));
  });
});

describe(`the owner's session dates and attendee pages, through their routes (${DB_NAME})`, () => {
  async function signedIn(url: string, init: RequestInit = {}) {
    const cookie = await signedInOwner(handle, { userAgent: "tickets-test" });
    return new Request(`http://localhost:3000${url}`, {
      ...init,
      headers: {
        Cookie: cookie,
        Origin: "http://localhost:3000",
        ...(init.body ? { "Content-Type": "application/x-www-form-urlencoded" } : {}),
      },
    });
  }
  const sessionsRoute = () => import("~/routes/admin/event-sessions");
  const post = async (form: Record<string, string>) => {
    const { action } = await sessionsRoute();
    const request = await signedIn("/admin/events/tablecloth-workshop/sessions", {
      method: "POST",
      body: new URLSearchParams(form),
    });
    try {
      return (await action({
        request,
        params: { id: "tablecloth-workshop" },
        context: testContext(handle),
      } as never)) as unknown;
    } catch (thrown) {
      return thrown;
    }
  };
  it("refuses bad input with a message per field and stores nothing; adds, then refuses to remove a session with tickets", async () => {
    const schema = await import("~/db/schema");
    const before = await handle.db.select().from(schema.eventSessions);
    for (const [form, field] of [
      [{ date: "", start: "10:00", end: "13:00", capacity: "" }, "date"],
      [{ date: "2025-02-30", start: "10:00", end: "13:00", capacity: "" }, "date"],
      [{ date: "2025-11-08", start: "13:00", end: "10:00", capacity: "" }, "end"],
      [{ date: "2025-11-08", start: "10:00", end: "13:00", capacity: "0" }, "capacity"],
      [{ date: "2025-11-08", start: "25:00", end: "13:00", capacity: "" }, "start"],
    ] as const) {
      const result = (await post(form)) as { data: { fieldErrors: Record<string, string> }; init: ResponseInit };
      expect(result.init.status).toBe(400);
      expect(result.data.fieldErrors[field]).toBeTruthy();
    }
    const past = (await post({ date: "2025-09-01", start: "10:00", end: "13:00", capacity: "" })) as {
      data: { fieldErrors: Record<string, string> };
      init: ResponseInit;
    };
    expect(past.init.status).toBe(409);
    expect(await handle.db.select().from(schema.eventSessions)).toEqual(before);

    const added = (await post({ date: "2025-11-08", start: "10:00", end: "13:00", capacity: "6" })) as Response;
    expect(added.status).toBe(302);
    const [row] = await handle.db
      .select()
      .from(schema.eventSessions)
      .where(eq(schema.eventSessions.startsAt, new Date("2025-11-08T08:00:00Z")));
    expect(row).toMatchObject({ capacity: 6 });
    const audit = await handle.db.select().from(schema.adminAuditLog);
    expect(audit.some((a) => a.action === "event.session.add" && a.summary.includes("8 November 2025"))).toBe(true);

    // The 20 September session (earlier test) has a paid ticket: it cannot be removed.
    const [sold] = await handle.db
      .select()
      .from(schema.eventSessions)
      .where(eq(schema.eventSessions.startsAt, new Date("2025-09-20T07:00:00Z")));
    const refused = (await post({ intent: "remove", sessionId: String(sold!.id) })) as {
      data: { fieldErrors: Record<string, string> };
      init: ResponseInit;
    };
    expect(refused.init.status).toBe(409);
    expect(refused.data.fieldErrors.form).toBe("This session has tickets, so it cannot be removed.");
    const removed = (await post({ intent: "remove", sessionId: String(row!.id) })) as Response;
    expect(removed.status).toBe(302);
    expect(await handle.db.select().from(schema.eventSessions).where(eq(schema.eventSessions.id, row!.id))).toEqual([]);
  });

  it("the attendee CSV lists every ticket with name, email, phone, type, code and check-in time", async () => {
    const { loader } = await import("~/routes/admin-attendees-csv");
    const response = (await loader({
      request: await signedIn("/admin/events/tablecloth-workshop/attendees.csv"),
      params: { id: "tablecloth-workshop" },
      context: testContext(handle),
    } as never)) as Response;
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    const lines = (await response.text()).trim().split("\r\n");
    expect(lines[0]).toBe("Name,Email,Phone,Ticket type,Seat,Session,Code,Order reference,Checked in at,Cancelled");
    const all = await handle.db.select().from(tickets);
    expect(lines).toHaveLength(all.length + 1);
    const admitted = all.find((t) => t.checkedInAt)!;
    expect(lines.some((l) => l.includes(admitted.code) && l.includes(admitted.checkedInAt!.toISOString()))).toBe(true);
    expect(lines.some((l) => l.includes("+27 82 555 0101") && l.includes("Monthly Workshop"))).toBe(true);
  });
});

describe(`a refunded order's tickets (${DB_NAME})`, () => {
  it("no longer admit, online or synced from an offline device", async () => {
    const { id, issued } = await buyWorkshopSeat("refund@example.com");
    const { voidOrderTickets } = await import("~/tickets/issue.server");
    expect(await handle.db.transaction((tx) => voidOrderTickets(tx, id, NOW))).toBe(1);
    expect(await handle.db.transaction((tx) => voidOrderTickets(tx, id, NOW))).toBe(0);
    expect(await checkInByCode(handle.db, { code: issued[0]!.code, deviceId: "door-a", now: NOW })).toMatchObject({
      outcome: "refunded",
      voidedAt: NOW.toISOString(),
      holderName: "Thandi Mokoena",
    });
    expect(
      await checkInByCode(handle.db, {
        code: issued[0]!.shortCode.toLowerCase(),
        deviceId: "door-a",
        now: NOW,
        eventId: "tablecloth-workshop",
      }),
    ).toMatchObject({ outcome: "refunded" });
    const synced = await syncOfflineScans(
      handle.db,
      {
        deviceId: "door-void",
        eventId: "tablecloth-workshop",
        deviceNow: NOW.toISOString(),
        scans: [{ clientScanId: "v1", code: issued[0]!.code, scannedAt: NOW.toISOString() }],
      },
      NOW,
    );
    expect(synced.map((s) => s.outcome)).toEqual(["refunded"]);
    const [ticket] = await handle.db.select().from(tickets).where(eq(tickets.orderId, id));
    expect(ticket!.voidedAt?.toISOString()).toBe(NOW.toISOString());
  });
});

describe(`the check-in page without JavaScript: a plain form post (${DB_NAME})`, () => {
  it("admits a typed code once, then says already checked in; undo takes it back", async () => {
    const code = (await buyWorkshopSeat("nojs@example.com")).issued[0]!.code;
    const { action } = await import("~/routes/admin/check-in");
    const cookie = await signedInOwner(handle, { userAgent: "tickets-test" });
    const post = (form: Record<string, string>) =>
      action({
        request: new Request("http://localhost:3000/admin/check-in", {
          method: "POST",
          headers: {
            Cookie: cookie,
            Origin: "http://localhost:3000",
            "Content-Type": "application/x-www-form-urlencoded",
          },
          body: new URLSearchParams(form),
        }),
        params: {},
        context: testContext(handle),
      } as never);
    expect(await post({ code, eventId: "tablecloth-workshop" })).toMatchObject({
      result: { outcome: "admitted", holderName: "Thandi Mokoena" },
    });
    expect(await post({ code, eventId: "tablecloth-workshop" })).toMatchObject({
      result: { outcome: "already", checkedInAt: NOW.toISOString() },
    });
    // A ticket of another event is refused, naming its event.
    expect(await post({ code, eventId: "sip-style" })).toMatchObject({
      result: { outcome: "other-event", eventTitle: WORKSHOP },
    });
    expect(await post({ code: "" })).toEqual({
      message: "Type or scan a ticket code, or two letters of a name.",
      result: null,
      matches: null,
    });
    // Anything that is not a code searches the event's tickets by name, email or order reference.
    const found = (await post({ code: "nojs@", eventId: "tablecloth-workshop" })) as {
      matches: { code: string; name: string }[];
    };
    expect(found.matches).toEqual([expect.objectContaining({ code, name: "Thandi Mokoena" })]);
    expect(await post({ intent: "undo" })).toEqual({
      message: "Check-in undone: Thandi Mokoena",
      result: null,
      matches: null,
    });
    expect(await post({ code })).toMatchObject({ result: { outcome: "admitted" } });
  });
});
