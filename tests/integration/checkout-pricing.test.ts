import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/db/client.server";
import {
  catalogItems,
  emailOutbox,
  members,
  membershipTiers,
  orderLines,
  orders,
  ticketOptions,
  tickets,
} from "~/db/schema";
import { and } from "drizzle-orm";
import { bagBrowser } from "../support/bag";
import { fixedClock } from "~/lib/clock";
import { createMemberSession } from "~/memberships/member-session.server";
import { submitCheckout } from "~/orders/checkout-action.server";
import type { CheckoutActionResult } from "~/orders/checkout-schema";
import type { PaymentProvider } from "~/payments/provider";
import { createSimulatorProvider } from "~/payments/simulator.server";
import { loader } from "~/routes/checkout";
import { buyer, orderIdFrom } from "../support/checkout";
import { createTestDatabase, testContext } from "../support/test-db";

let handle: DatabaseHandle;
let glow: number;
let creative: number;
let lapsed: number;
let glowBag: number;
let starter: number;
let glowRace: number;
beforeAll(async () => {
  handle = await createTestDatabase();
  const add = async (email: string, tierSlug: string, paidUntil: string) => {
    const [row] = await handle.db
      .insert(members)
      .values({ email, name: "Thandeka Mokoena", phone: "082 555 0101", tierSlug, paidUntil, joinedAt: new Date() })
      .returning();
    return row!.id;
  };
  glow = await add("glow@example.test", "glow-bee", "2025-10-10");
  creative = await add("creative@example.test", "creative-bee", "2025-10-10");
  lapsed = await add("lapsed@example.test", "creative-bee", "2025-07-01");
  glowBag = await add("glow-bag@example.test", "glow-bee", "2025-10-10");
  starter = await add("starter@example.test", "style-starter", "2025-10-10");
  glowRace = await add("glow-race@example.test", "glow-bee", "2025-10-10");
});
afterAll(() => handle?.close());

const EARLY_BIRD = "Sip & Style at Nanas - Early Bird";
const WORKSHOP = "Transform Tablecloth into Wrap Around Skirt";

/** The simulator, counting the checkouts the shop asks it for. */
function countingProvider() {
  const simulator = createSimulatorProvider();
  const sent: { amountCents: number; lineItems: unknown }[] = [];
  const provider: PaymentProvider = {
    ...simulator,
    createCheckout: (input) => {
      sent.push({ amountCents: input.amountCents, lineItems: input.lineItems });
      return simulator.createCheckout(input);
    },
  };
  return { provider, sent };
}

let ip = 0;
/** The member's browser: signed in with a member session cookie, on the one clock at `at`. */
async function asMember(memberId: number | undefined, at: string) {
  const context = testContext(handle, { clock: fixedClock(at), clientIp: `10.9.0.${++ip}` });
  const cookie = memberId === undefined ? "" : (await createMemberSession(handle.db, context, memberId)).split(";")[0]!;
  return { context, cookie };
}

async function buy(memberId: number | undefined, at: string, type: string, item: string, seats = "1") {
  const { context, cookie } = await asMember(memberId, at);
  const { provider, sent } = countingProvider();
  const url = `http://localhost/checkout?${new URLSearchParams({ type, item })}`;
  const request = new Request(url, {
    method: "POST",
    headers: cookie ? { Cookie: cookie } : {},
    body: new URLSearchParams({ ...buyer, type, item, seats }),
  });
  const result = await submitCheckout(request, context, provider);
  return { result, sent };
}

async function orderOf(result: Response | CheckoutActionResult) {
  if (!(result instanceof Response)) throw new Error(`expected a redirect, got ${JSON.stringify(result.toast)}`);
  const location = result.headers.get("Location") ?? "";
  const id = location.includes("/payments/simulator/")
    ? orderIdFrom(result)
    : new URL(location).searchParams.get("orderId")!;
  const [order] = await handle.db.select().from(orders).where(eq(orders.id, id));
  const lines = await handle.db.select().from(orderLines).where(eq(orderLines.orderId, id));
  return { order: order!, lines, location };
}

async function pageFor(memberId: number | undefined, at: string, type: string, item: string) {
  const { context, cookie } = await asMember(memberId, at);
  const request = new Request(`http://localhost/checkout?${new URLSearchParams({ type, item })}`, {
    headers: cookie ? { Cookie: cookie } : {},
  });
  /* eslint-disable @typescript-eslint/no-explicit-any */
  return (await loader({ request, context, params: {} } as any)) as any;
  /* eslint-enable @typescript-eslint/no-explicit-any */
}

describe("a Glow Bee member's free Sip & Style ticket", () => {
  it("is free the first time this month: no provider call, confirmed at once, ticket issued and emailed", async () => {
    const at = "2025-08-31T23:30:00+02:00";
    const page = await pageFor(glow, at, "ticket", EARLY_BIRD);
    expect(page.offer.price).toMatchObject({ totalCents: 0, reason: "Glow Bee: free ticket, 1 of 1 this month" });

    const { result, sent } = await buy(glow, at, "ticket", EARLY_BIRD);
    expect(sent).toEqual([]);
    const { order, lines, location } = await orderOf(result);
    expect(location).toContain("/order-confirmation?status=success");
    expect(order).toMatchObject({ status: "paid", amountCents: 0, provider: "free" });
    expect(lines).toEqual([
      expect.objectContaining({
        unitPriceCents: 35000,
        discountCents: 35000,
        discountReason: "Glow Bee: free ticket, 1 of 1 this month",
        perkMemberId: glow,
        perkFreeTickets: 1,
      }),
    ]);
    expect(await handle.db.select().from(tickets).where(eq(tickets.orderId, order.id))).toHaveLength(1);
    const mail = await handle.db.select().from(emailOutbox).where(eq(emailOutbox.orderId, order.id));
    expect(mail.find((m) => m.toAddress === buyer.email)?.attachments?.length).toBeGreaterThan(0);
    expect(mail.find((m) => m.toAddress !== buyer.email)?.textBody).toContain("Free (member perk)");
  });

  it("the second ticket that month is full price (Glow Bee has no event discount), sent to the provider", async () => {
    const at = "2025-08-31T23:45:00+02:00";
    const page = await pageFor(glow, at, "ticket", EARLY_BIRD);
    expect(page.offer.price).toMatchObject({ totalCents: 35000, reason: null });
    const { result, sent } = await buy(glow, at, "ticket", EARLY_BIRD);
    const { order, lines } = await orderOf(result);
    expect(order).toMatchObject({ status: "pending", amountCents: 35000, provider: "simulator" });
    expect(lines[0]).toMatchObject({ discountCents: 0, discountReason: null, perkFreeTickets: 0 });
    expect(sent).toEqual([{ amountCents: 35000, lineItems: [expect.objectContaining({ unitPriceCents: 35000 })] }]);
  });

  it("is free again in the next South African calendar month (the one clock moved past midnight)", async () => {
    const { result, sent } = await buy(glow, "2025-09-01T00:15:00+02:00", "ticket", EARLY_BIRD);
    expect(sent).toEqual([]);
    const { order, lines } = await orderOf(result);
    expect(order).toMatchObject({ status: "paid", amountCents: 0 });
    expect(lines[0]).toMatchObject({ perkFreeTickets: 1, discountReason: "Glow Bee: free ticket, 1 of 1 this month" });
  });
});

describe("a Creative Bee member", () => {
  it("pays 10% less for a workshop seat, per seat and in the total the provider is asked for", async () => {
    const at = "2025-09-10T10:00:00+02:00";
    const page = await pageFor(creative, at, "workshop", WORKSHOP);
    expect(page.offer.price).toMatchObject({ totalCents: 22500, reason: "10% Creative Bee" });
    const { result, sent } = await buy(creative, at, "workshop", WORKSHOP, "2");
    const { order, lines } = await orderOf(result);
    expect(order).toMatchObject({ amountCents: 45000, status: "pending" });
    expect(lines[0]).toMatchObject({ quantity: 2, unitPriceCents: 25000, discountCents: 5000, perkMemberId: creative });
    expect(sent.map((s) => s.amountCents)).toEqual([45000]);
  });
});

describe("no perks", () => {
  it("a lapsed member pays full price, and so does a buyer who is not signed in", async () => {
    const at = "2025-09-10T10:00:00+02:00";
    for (const memberId of [lapsed, undefined]) {
      const page = await pageFor(memberId, at, "workshop", WORKSHOP);
      expect(page.offer.price).toMatchObject({ totalCents: 25000, reason: null });
      const { result, sent } = await buy(memberId, at, "workshop", WORKSHOP);
      const { order, lines } = await orderOf(result);
      expect(order.amountCents).toBe(25000);
      expect(lines[0]).toMatchObject({ discountCents: 0, discountReason: null, perkMemberId: null });
      expect(sent.map((s) => s.amountCents)).toEqual([25000]);
    }
  });
});

describe("a bag checked out by a Glow Bee member", () => {
  it("prices each line by the rule: the page and the order agree, and the provider lists the charged lines", async () => {
    const at = "2025-09-10T10:00:00+02:00";
    const [earlyBird] = await handle.db
      .select()
      .from(ticketOptions)
      .where(and(eq(ticketOptions.eventId, "sip-style"), eq(ticketOptions.type, "Early Bird")));
    const [earrings] = await handle.db.select().from(catalogItems).where(eq(catalogItems.slug, "candy-earrings"));
    const { context, cookie } = await asMember(glowBag, at);
    const browser = bagBrowser(handle, { clock: context.clock, clientIp: "10.9.1.1" });
    const [name, token] = cookie.split("=");
    browser.jar.set(name!, token!);
    await browser.post({ intent: "add", kind: "ticket", id: String(earlyBird!.id), quantity: "2" });
    await browser.post({ intent: "add", kind: "catalog", id: String(earrings!.id), quantity: "1" });

    const request = new Request("http://localhost/checkout?bag=1", { headers: { cookie: browser.cookieHeader() } });
    /* eslint-disable @typescript-eslint/no-explicit-any */
    const page = (await loader({ request, context, params: {} } as any)) as any;
    /* eslint-enable @typescript-eslint/no-explicit-any */
    const reason = "Glow Bee: free ticket, 1 of 1 this month";
    expect(page.offer).toMatchObject({ kind: "bag", ready: true, totalCents: 70000 });
    expect(Object.values(page.offer.perks)).toEqual([{ reason, chargedCents: 35000 }]);

    const { provider, sent } = countingProvider();
    const { order, lines } = await orderOf(await browser.checkout(provider));
    expect(order.amountCents).toBe(70000);
    expect(lines.map((l) => [l.displayName, l.discountCents, l.discountReason, l.perkFreeTickets])).toEqual(
      expect.arrayContaining([
        ["Sip & Style at Nanas - Early Bird", 35000, reason, 1],
        [earrings!.name, 0, null, 0],
      ]),
    );
    expect(sent).toHaveLength(1);
    expect(sent[0]!.amountCents).toBe(70000);
    const items = sent[0]!.lineItems as { quantity: number; unitPriceCents: number }[];
    expect(items.reduce((sum, i) => sum + i.quantity * i.unitPriceCents, 0)).toBe(70000);
  });
});

describe("a total the provider cannot take", () => {
  it("above R 0.00 but under R 2.00 is refused with a message, and nothing is stored", async () => {
    await handle.db
      .update(membershipTiers)
      .set({ perkPercentOffProducts: 70 })
      .where(eq(membershipTiers.slug, "style-starter"));
    const before = await handle.db.select().from(orders);
    const { result, sent } = await buy(starter, "2025-09-10T10:00:00+02:00", "product", "Test Product");
    expect(result).toMatchObject({ ok: false, toast: { description: expect.stringContaining("R 2.00") } });
    expect(sent).toEqual([]);
    expect(await handle.db.select().from(orders)).toHaveLength(before.length);
  });
});

describe("four checkouts of one Glow Bee member at once, through the checkout action", () => {
  it("give exactly one free ticket; the others are priced in full before anyone pays", async () => {
    const at = "2025-09-10T10:00:00+02:00";
    const results = await Promise.all(Array.from({ length: 4 }, () => buy(glowRace, at, "ticket", EARLY_BIRD)));
    const placed = await Promise.all(results.map(({ result }) => orderOf(result)));
    const amounts = placed.map((p) => p.order.amountCents).sort((a, b) => a - b);
    expect(amounts).toEqual([0, 35000, 35000, 35000]);
    expect(placed.filter((p) => p.order.status === "paid")).toHaveLength(1);
    expect(results.reduce((n, r) => n + r.sent.length, 0)).toBe(3);
  });
});
