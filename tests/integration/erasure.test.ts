import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadDashboardData } from "~/analytics/dashboard.server";
import { backupDatabase } from "~/db/backup.server";
import { openDatabase, type DatabaseHandle } from "~/db/client.server";
import {
  adminAuditLog,
  consentRecords,
  emailOutbox,
  erasureRequests,
  orders,
  subscribers,
  ticketOptions,
  waitlistEntries,
} from "~/db/schema";
import { fixedClock, type Clock } from "~/lib/clock";
import { markFulfilled, saveOwnerNote } from "~/orders/fulfilment.server";
import { runSimulatorIntent } from "~/orders/simulator-actions.server";
import { stopCardCharges } from "~/memberships/card-subscriptions.server";
import { setNewsConsent } from "~/newsletters/subscriptions.server";
import { carryOutErasure, runDueErasures } from "~/privacy/erasure.server";
import * as adminRequests from "~/routes/admin/data-requests";
import * as contact from "~/routes/contact";
import * as undo from "~/routes/your-data-undo";
import * as yourData from "~/routes/your-data";
import { checkout, orderIdFrom } from "../support/checkout";
import { cookiePair, get, post } from "../support/account";
import { createTestDatabase, testContext } from "../support/test-db";

// Issue 42: "Delete my data" is scheduled 7 days ahead with an undo link, then carried out once by the
// timed work; afterwards nothing the shop holds names her, while the books are as they were.

const START = "2025-09-20T10:00:00+02:00";
const NEWS_WORDING = "Send me news of new pieces and workshops";
const AFTER_WINDOW = "2025-09-28T10:00:00+02:00";
const LERATO = {
  firstName: "Lerato",
  lastName: "Vilakazi",
  email: "lerato.vilakazi@example.test",
  phone: "+27 83 444 0199",
  address: "7 Protea Lane\nRosebank\nJohannesburg 2196",
};
/** What must be gone from every page, export, email and backup: her name, email, phone and address. */
const TRACES = [
  "Lerato",
  "Vilakazi",
  "lerato.vilakazi",
  "444 0199",
  "834440199",
  "Protea Lane",
  "Rosebank",
  "Johannesburg 2196",
];

let handle: DatabaseHandle;
let second: DatabaseHandle | undefined;
let ip = 0;
/** Her card, were she paying by one, stopped at the simulated provider before her data goes. */
const stopCard = (memberId: number) => stopCardCharges(testContext(handle, { clock: after }), memberId);
const ctx = (clock: Clock) => testContext(handle, { clock, clientIp: `198.51.100.${++ip}` });
const start = fixedClock(START);
const after = fixedClock(AFTER_WINDOW);

async function buy(item: string, who: typeof LERATO, clock: Clock) {
  const orderId = orderIdFrom(await checkout(handle, "product", item, { fields: who, clock }));
  const [order] = await handle.db.select().from(orders).where(eq(orders.id, orderId));
  await runSimulatorIntent(ctx(clock), order!, "pay");
  return orderId;
}

/** The data page's session for an address, as the emailed link gives it. */
async function dataCookie(email: string, clock: Clock): Promise<string> {
  await post(yourData.action, ctx(clock), "/your-data", { intent: "request-link", email });
  const [mail] = await handle.db
    .select()
    .from(emailOutbox)
    .where(sql`${emailOutbox.toAddress} = ${email} and ${emailOutbox.subject} = 'Your Honey Bee data link'`)
    .orderBy(sql`${emailOutbox.id} desc`)
    .limit(1);
  const token = /token=([A-Za-z0-9_-]+)/.exec(mail!.textBody)![1]!;
  const { action } = await import("~/routes/your-data-open");
  const opened = await post(action, ctx(clock), "/your-data/open", { token });
  return cookiePair(opened.headers.get("set-cookie"));
}

async function books() {
  const [row] = (
    (await handle.db.execute(
      sql`select count(*)::int as n, sum(amount_cents)::int as cents, string_agg(reference, ',' order by reference) as refs from orders`,
    )) as unknown as { rows: { n: number; cents: number; refs: string }[] }
  ).rows;
  const dashboard = await loadDashboardData(handle.db, { period: "all", now: after.now(), ownHosts: ["localhost"] });
  return {
    ...row,
    checkouts: dashboard.checkouts.length,
    checkoutCents: dashboard.checkouts.reduce((sum, c) => sum + c.amountCents, 0),
  };
}

async function backupText(): Promise<string> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "honey-erasure-")), "backup.ndjson");
  await backupDatabase(handle.db, file);
  return fs.readFileSync(file, "utf8");
}

let leratoOrders: string[] = [];
let cookie = "";

beforeAll(async () => {
  handle = await createTestDatabase();
  const pool = (handle.raw as { pool?: { options: { connectionString?: string } } }).pool;
  // A second instance on the same PostgreSQL database, for "exactly once"; PGlite serves one process.
  if (pool?.options.connectionString) second = await openDatabase({ databaseUrl: pool.options.connectionString });
  leratoOrders = [await buy("Candy Earrings", LERATO, start), await buy("Crochet Earrings", LERATO, start)];
  for (const id of leratoOrders) await markFulfilled(ctx(start), id, "posted");
  await saveOwnerNote(ctx(start), leratoOrders[0]!, "Lerato Vilakazi asked for gift wrap");
  const message = new Request("http://localhost/contact", {
    method: "POST",
    body: new URLSearchParams({
      firstName: LERATO.firstName,
      lastName: LERATO.lastName,
      email: LERATO.email,
      subject: "Sizing",
      message: "Is the hat one size? Please call me on +27 83 444 0199.",
    }),
    headers: { "user-agent": "vitest" },
  });
  await contact.action({ request: message, context: ctx(start), params: {} } as never);
  // She also ticked the news box on her account: a subscriber with her consent kept as evidence.
  await setNewsConsent(
    handle.db,
    testContext(handle).config.sessionSecret,
    { email: LERATO.email, name: `${LERATO.firstName} ${LERATO.lastName}` },
    true,
    { wording: NEWS_WORDING, form: "account", page: "/account" },
    "signed in to her account by a link to the address",
    start.now(),
  );
  // And she waits for a seat on a sold-out list.
  const [option] = await handle.db.select().from(ticketOptions).limit(1);
  await handle.db.insert(waitlistEntries).values({
    stockKey: `ticket:${option!.id}`,
    ticketOptionId: option!.id,
    email: LERATO.email,
    name: `${LERATO.firstName} ${LERATO.lastName}`,
    seats: 2,
    createdAt: start.now(),
  });
  cookie = await dataCookie(LERATO.email, start);
}, 120_000);
afterAll(async () => {
  await second?.close();
  await handle?.close();
});

describe("Delete my data", () => {
  it("she downloads her data first: both orders and her message", async () => {
    const text = JSON.stringify((await get(yourData.loader, ctx(start), "/your-data", cookie)).body);
    const refs = (
      await handle.db
        .select()
        .from(orders)
        .where(sql`${orders.id} in ${leratoOrders}`)
    ).map((o) => o.reference);
    for (const expected of [...refs, "Is the hat one size?", "News by email", NEWS_WORDING, "Waiting lists"])
      expect(text).toContain(expected);
  });

  it("bad input gets a field message and changes nothing", async () => {
    const bad = await post(
      yourData.action,
      ctx(start),
      "/your-data",
      { intent: "delete", openOrders: "maybe" },
      cookie,
    );
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ errors: { openOrders: "Choose what happens to your open orders." } });
    const anonymous = await post(yourData.action, ctx(start), "/your-data", { intent: "delete", openOrders: "erase" });
    expect(anonymous.status).toBe(400);
    expect(await handle.db.select().from(erasureRequests)).toEqual([]);
  });

  it("schedules it 7 days ahead and emails the undo link; the undo link stops it", async () => {
    const asked = await post(
      yourData.action,
      ctx(start),
      "/your-data",
      { intent: "delete", openOrders: "erase" },
      cookie,
    );
    expect(asked.body).toMatchObject({
      ok: true,
      message: "We will delete your data on 27 September 2025. We have emailed you a link to undo it until then.",
    });
    const [mail] = await handle.db
      .select()
      .from(emailOutbox)
      .where(
        sql`${emailOutbox.toAddress} = ${LERATO.email} and ${emailOutbox.subject} = 'Your Honey Bee data will be deleted'`,
      );
    const token = /your-data\/undo\?token=([A-Za-z0-9_-]+)/.exec(mail!.textBody)![1]!;
    expect((await post(undo.action, ctx(start), "/your-data/undo", { token })).status).toBe(200);
    expect((await post(undo.action, ctx(start), "/your-data/undo", { token })).status).toBe(410);
    expect(await runDueErasures(handle.db, after.now(), stopCard)).toEqual({ done: 0, waiting: 0 });
    const page = await get(yourData.loader, ctx(start), "/your-data", cookie);
    expect(page.body).toMatchObject({ erasure: null });
  });

  it("after the window it is carried out once, even by two instances at once", async () => {
    await post(yourData.action, ctx(start), "/your-data", { intent: "delete", openOrders: "erase" }, cookie);
    const before = await books();
    // The check afterwards can fail: every trace is in the shop's data until then.
    const dumpBefore = (await backupText()).toLowerCase();
    for (const trace of TRACES) expect(dumpBefore, trace).toContain(trace.toLowerCase());
    expect(await runDueErasures(handle.db, start.now(), stopCard)).toEqual({ done: 0, waiting: 0 });
    const results = await Promise.all([
      runDueErasures(handle.db, after.now(), stopCard),
      runDueErasures((second ?? handle).db, after.now(), stopCard),
    ]);
    expect(results.reduce((n, r) => n + r.done, 0)).toBe(1);
    const done = await handle.db.select().from(adminAuditLog).where(eq(adminAuditLog.action, "erasure.done"));
    expect(done).toHaveLength(1);
    expect(await books()).toEqual(before);
    const [request] = await handle.db.select().from(erasureRequests).where(eq(erasureRequests.status, "done"));
    expect(request).toMatchObject({ email: null, undoTokenHash: null });
    expect(await carryOutErasure(handle.db, request!.id, after.now(), "owner", stopCard)).toBe("gone");
  });

  it("afterwards no page, export, email or backup of the shop names her; her orders carry the reference", async () => {
    const [request] = await handle.db.select().from(erasureRequests).where(eq(erasureRequests.status, "done"));
    const rows = await handle.db
      .select()
      .from(orders)
      .where(sql`${orders.id} in ${leratoOrders}`);
    expect(rows.map((o) => [o.customerFirstName, o.customerLastName, o.customerPhone, o.customerAddress])).toEqual([
      ["Erased", request!.reference, "", ""],
      ["Erased", request!.reference, "", ""],
    ]);
    const dump = (await backupText()).toLowerCase();
    for (const trace of TRACES) expect(dump, trace).not.toContain(trace.toLowerCase());
    // Her old data session is gone, and asking again finds nothing to send.
    expect((await get(yourData.loader, ctx(after), "/your-data", cookie)).body).toEqual({ identified: false });
    await post(yourData.action, ctx(after), "/your-data", { intent: "request-link", email: LERATO.email });
    expect(await handle.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, LERATO.email))).toEqual([]);
  });

  it("her news subscription is gone, its evidence kept by the keyed hash alone, ending with the erasure", async () => {
    const [request] = await handle.db.select().from(erasureRequests).where(eq(erasureRequests.status, "done"));
    expect(await handle.db.select().from(subscribers)).toEqual([]);
    const evidence = await handle.db.select().from(consentRecords).orderBy(consentRecords.id);
    expect(evidence.map((c) => [c.action, c.form, c.subscriberId])).toEqual([
      ["given", "account", null],
      ["withdrawn", "erasure", null],
    ]);
    expect(evidence[1]).toMatchObject({ confirmedBy: `erasure ${request!.reference}` });
    expect(new Set(evidence.map((c) => c.addressHash)).size).toBe(1);
    const [entry] = await handle.db.select().from(waitlistEntries);
    expect(entry).toMatchObject({ name: request!.reference, status: "removed", seats: 2 });
  });
});

describe("the owner's data requests", () => {
  const NANDI = { ...LERATO, firstName: "Nandi", lastName: "Zwane", email: "nandi.zwane@example.test" };

  it("refuses a bad address with a field message and changes nothing", async () => {
    const before = await handle.db.select().from(erasureRequests);
    for (const email of ["", "nandi", "nandi@"]) {
      const answer = await post(adminRequests.action, ctx(start), "/admin/data-requests", {
        intent: "schedule",
        email,
        openOrders: "wait",
      });
      expect(answer.status, email).toBe(400);
      expect((answer.body as { fieldErrors: Record<string, string> }).fieldErrors.email, email).toMatch(/email/);
    }
    const choice = await post(adminRequests.action, ctx(start), "/admin/data-requests", {
      intent: "schedule",
      email: NANDI.email,
      openOrders: "later",
    });
    expect((choice.body as { fieldErrors: Record<string, string> }).fieldErrors.openOrders).toBe(
      "Choose what happens to their open orders.",
    );
    expect(await handle.db.select().from(erasureRequests)).toEqual(before);
  });

  it("schedules one for a person who phoned; waits while her order is to be posted; runs once it is posted", async () => {
    const orderId = await buy("Candy Earrings", NANDI, start);
    const asked = await post(adminRequests.action, ctx(start), "/admin/data-requests", {
      intent: "schedule",
      email: NANDI.email,
      openOrders: "wait",
    });
    expect(asked.status).toBe(302);
    const list = await get(adminRequests.loader, ctx(start), "/admin/data-requests");
    const mine = (list.body as { requests: { id: number; email: string | null; status: string }[] }).requests.find(
      (r) => r.email === NANDI.email,
    )!;
    expect(mine.status).toBe("scheduled");
    const audit = await handle.db.select().from(adminAuditLog).where(eq(adminAuditLog.action, "erasure.request"));
    expect(JSON.stringify(audit)).not.toContain("nandi");

    expect(await runDueErasures(handle.db, after.now(), stopCard)).toEqual({ done: 0, waiting: 1 });
    await markFulfilled(ctx(after), orderId, "posted");
    const run = await post(adminRequests.action, ctx(after), "/admin/data-requests", {
      intent: "run",
      id: String(mine.id),
    });
    expect(run.status).toBe(302);
    const [order] = await handle.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({ customerFirstName: "Erased", customerPhone: "" });
    const done = await get(adminRequests.loader, ctx(after), "/admin/data-requests");
    const text = JSON.stringify(done.body);
    expect(text).not.toContain("nandi");
    expect(text).toContain('"status":"done"');
    const audits = await handle.db
      .select()
      .from(adminAuditLog)
      .where(eq(adminAuditLog.entityId, String(mine.id)));
    expect(audits.map((a) => a.summary)).toContainEqual(expect.stringContaining("(the owner ran it)"));
    expect(JSON.stringify(audits).toLowerCase()).not.toContain("nandi");
  });
});

describe("open orders", () => {
  it("are named on the data page, and the person must choose what happens to them", async () => {
    const THEMBI = { ...LERATO, firstName: "Thembi", lastName: "Ndlovu", email: "thembi.ndlovu@example.test" };
    const orderId = await buy("Candy Earrings", THEMBI, start);
    const [order] = await handle.db.select().from(orders).where(eq(orders.id, orderId));
    const thembi = await dataCookie(THEMBI.email, start);
    const page = await get(yourData.loader, ctx(start), "/your-data", thembi);
    expect(page.body).toMatchObject({
      openOrders: [{ reference: order!.reference, what: "Candy Earrings", why: "paid, to be posted to you" }],
      erasure: null,
    });
    const before = await handle.db.select().from(erasureRequests);
    const unchosen = await post(yourData.action, ctx(start), "/your-data", { intent: "delete" }, thembi);
    expect(unchosen.status).toBe(400);
    expect(await handle.db.select().from(erasureRequests)).toEqual(before);
    const chosen = await post(
      yourData.action,
      ctx(start),
      "/your-data",
      { intent: "delete", openOrders: "wait" },
      thembi,
    );
    expect(chosen.status).toBe(200);
    expect((await get(yourData.loader, ctx(start), "/your-data", thembi)).body).toMatchObject({
      erasure: { day: "27 September 2025", waits: true },
    });
    const kept = await post(yourData.action, ctx(start), "/your-data", { intent: "keep" }, thembi);
    expect(kept.body).toMatchObject({ ok: true, message: "Done: we will keep your data." });
  });
});
