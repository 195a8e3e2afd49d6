import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { markAnswered, unansweredCount } from "~/contact/messages-admin.server";
import { loadTodoList } from "~/dashboard/todo.server";
import type { DatabaseHandle } from "~/db/client.server";
import { adminAuditLog, contactSubmissions, events, members, orders, stockHolds, ticketOptions } from "~/db/schema";
import { readOrderQuery } from "~/orders/order-list-query";
import { listOrdersForAdmin } from "~/orders/orders-admin.server";
import * as messagesRoute from "~/routes/admin/messages";
import { createTestDatabase, testContext } from "../support/test-db";
import { signedInOwner } from "../support/owner";

/** Issue 36: the dashboard's to-do list counts what needs the owner, and each count matches the list it links to. */
const NOW = new Date("2025-09-10T10:00:00+02:00");
let handle: DatabaseHandle;
let cookie: string;

let n = 0;
function order(values: Partial<typeof orders.$inferInsert>): typeof orders.$inferInsert {
  n += 1;
  return {
    reference: `HB-TODO${String(n).padStart(3, "0")}`,
    orderType: "product",
    itemName: `Item ${n}`,
    amountCents: 35000,
    status: "paid",
    customerFirstName: "Nomvula",
    customerLastName: "Dlamini-Featherstonehaugh",
    customerEmail: `buyer${n}@example.test`,
    customerPhone: "+27 82 555 0101",
    customerAddress: "1 Long Street, Cape Town",
    provider: "simulator",
    idempotencyKey: `todo-${n}`,
    createdAt: new Date(NOW.getTime() - (100 - n) * 60_000),
    ...values,
  };
}

beforeAll(async () => {
  handle = await createTestDatabase();
  cookie = await signedInOwner(handle);
  await handle.db
    .insert(orders)
    .values([
      order({ itemName: "Candy Earrings" }),
      order({ itemName: "Posted Scarf", fulfilmentStatus: "fulfilled", fulfilmentMethod: "posted" }),
      order({ orderType: "service", itemName: "Wardrobe Consultation" }),
      order({ orderType: "ticket", itemName: "Sip & Style ticket" }),
      order({ orderType: "membership", itemName: "Glow Bee" }),
      order({ itemName: "Last Crochet Earrings", needsAttention: true, attentionReason: "No unit was left." }),
      order({ itemName: "Unpaid Bag", status: "pending" }),
      order({ itemName: "Refunded Bag", status: "refunded", refundedCents: 35000 }),
    ]);
  await handle.db.insert(contactSubmissions).values(
    ["First", "Second", "Third", "Fourth", "Fifth"].map((subject, i) => ({
      firstName: "Lerato",
      lastName: "Mokoena",
      email: "lerato@example.test",
      subject,
      message: "Hello",
      createdAt: new Date(NOW.getTime() - (10 - i) * 60_000),
      answeredAt: subject === "Fifth" ? NOW : null,
    })),
  );
  const event = (id: string, title: string, startsAt: Date) => ({
    id,
    title,
    dates: "soon",
    startsAt,
    focus: "Styling",
    priceText: "R 350",
    description: "A styling evening.",
    location: "Maboneng",
    participants: "20",
  });
  await handle.db
    .insert(events)
    .values([
      event("todo-this-week", "Friday Styling Evening", new Date("2025-09-12T18:00:00+02:00")),
      event("todo-next-month", "October Market", new Date("2025-10-04T09:00:00+02:00")),
    ]);
  const [option] = await handle.db
    .insert(ticketOptions)
    .values([
      { eventId: "todo-this-week", type: "General", priceCents: 35000, description: "A seat", capacity: 20 },
      { eventId: "todo-next-month", type: "General", priceCents: 35000, description: "A seat", capacity: 50 },
    ])
    .returning();
  const [ticketOrder] = await handle.db.select({ id: orders.id }).from(orders).where(eq(orders.orderType, "ticket"));
  await handle.db.insert(stockHolds).values({
    orderId: ticketOrder!.id,
    stockKey: `ticket:${option!.id}`,
    quantity: 3,
    status: "converted",
    expiresAt: NOW,
  });
  const joinedAt = new Date("2025-06-01T10:00:00+02:00");
  await handle.db.insert(members).values([
    {
      name: "Due Soon",
      email: "soon@example.test",
      phone: "",
      tierSlug: "style-starter",
      status: "active",
      paidUntil: "2025-09-15",
      joinedAt,
    },
    {
      name: "Grace Week",
      email: "grace@example.test",
      phone: "",
      tierSlug: "style-starter",
      status: "due",
      paidUntil: "2025-09-08",
      joinedAt,
    },
    {
      name: "Far Away",
      email: "far@example.test",
      phone: "",
      tierSlug: "style-starter",
      status: "active",
      paidUntil: "2025-10-01",
      joinedAt,
    },
    {
      name: "Long Gone",
      email: "gone@example.test",
      phone: "",
      tierSlug: "style-starter",
      status: "lapsed",
      paidUntil: "2025-08-01",
      joinedAt,
    },
    {
      name: "Said Goodbye",
      email: "bye@example.test",
      phone: "",
      tierSlug: "style-starter",
      status: "cancelled",
      paidUntil: "2025-09-12",
      joinedAt,
    },
  ]);
});
afterAll(async () => {
  await handle?.close();
});

describe("the to-do list", () => {
  it("names only a paid, unsent physical product to post; tickets, memberships and services are not posted", async () => {
    const todo = await loadTodoList(handle.db, NOW);
    expect(todo.toPost.total).toBe(1);
    expect(todo.toPost.orders.map((o) => o.itemName)).toEqual(["Candy Earrings"]);
    expect(todo.toPost.orders[0]!.customer).toBe("Nomvula Dlamini-Featherstonehaugh");
    expect(todo.attention.total).toBe(1);
    expect(todo.attention.orders.map((o) => o.itemName)).toEqual(["Last Crochet Earrings"]);
  });

  it("the orders list's to-post filter shows exactly the dashboard's count", async () => {
    const list = await listOrdersForAdmin(handle.db, readOrderQuery(new URLSearchParams("status=to-post")));
    expect(list.total).toBe(1);
    expect(list.orders.map((o) => o.itemName)).toEqual(["Candy Earrings"]);
  });

  it("counts unanswered messages, names the oldest three, and members due or lapsing within 7 days", async () => {
    const todo = await loadTodoList(handle.db, NOW);
    expect(todo.messages.total).toBe(4);
    expect(todo.messages.messages.map((m) => m.subject)).toEqual(["First", "Second", "Third"]);
    expect(todo.members.total).toBe(2);
    expect(todo.members.members.map((m) => m.name)).toEqual(["Grace Week", "Due Soon"]);
  });

  it("lists only events that start within the week, with seats sold of the seats there are", async () => {
    const todo = await loadTodoList(handle.db, NOW);
    const mine = todo.events.filter((e) => e.id.startsWith("todo-"));
    expect(mine).toEqual([
      {
        id: "todo-this-week",
        title: "Friday Styling Evening",
        startsAt: "2025-09-12T16:00:00.000Z",
        sold: 3,
        capacity: 20,
      },
    ]);
    const week = NOW.getTime() + 7 * 24 * 60 * 60 * 1000;
    expect(
      todo.events.every(
        (e) => new Date(e.startsAt).getTime() >= NOW.getTime() && new Date(e.startsAt).getTime() < week,
      ),
    ).toBe(true);
  });
});

describe("marking a message answered", () => {
  it("takes it off the count, logs it once, and can be undone", async () => {
    const [first] = await handle.db.select().from(contactSubmissions).where(eq(contactSubmissions.subject, "First"));
    expect(await markAnswered(handle.db, first!.id, true, NOW)).toBe(true);
    expect(await markAnswered(handle.db, first!.id, true, NOW)).toBe(true);
    expect(await unansweredCount(handle.db)).toBe(3);
    const logged = await handle.db.select().from(adminAuditLog).where(eq(adminAuditLog.action, "message.answered"));
    expect(logged.map((l) => l.summary)).toEqual(['Marked answered: "First"']);
    expect(await markAnswered(handle.db, first!.id, false, NOW)).toBe(true);
    expect(await unansweredCount(handle.db)).toBe(4);
    expect(await markAnswered(handle.db, 999_999, true, NOW)).toBe(false);
  });

  it("the messages page's action marks one and returns to the same filter; bad input is refused and changes nothing", async () => {
    const [second] = await handle.db.select().from(contactSubmissions).where(eq(contactSubmissions.subject, "Second"));
    const post = (body: Record<string, string>) =>
      messagesRoute.action({
        request: new Request("http://localhost:3000/admin/messages?state=unanswered", {
          method: "POST",
          headers: { Cookie: cookie },
          body: new URLSearchParams(body),
        }),
        params: {},
        context: testContext(handle),
      } as never);
    const done = (await post({ id: String(second!.id), answered: "yes" })) as Response;
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/admin/messages?state=unanswered");
    const before = await unansweredCount(handle.db);
    for (const bad of [
      { id: "0", answered: "yes" },
      { id: "abc", answered: "yes" },
      { id: String(second!.id), answered: "maybe" },
    ]) {
      const refused = (await post(bad)) as { init?: ResponseInit };
      expect(refused.init?.status).toBe(400);
    }
    expect(((await post({ id: "999999", answered: "yes" })) as { init?: ResponseInit }).init?.status).toBe(404);
    expect(await unansweredCount(handle.db)).toBe(before);
    const [latest] = await handle.db.select().from(adminAuditLog).orderBy(desc(adminAuditLog.id)).limit(1);
    expect(latest!.summary).toBe('Marked answered: "Second"');
  });
});
