import { randomBytes, randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { simulatedSubscriptions } from "~/db/schema";
import { randAmount, SubscriptionApiError, type CardNotification, type SubscriptionsApi } from "./subscriptions";

type SimulatedRow = typeof simulatedSubscriptions.$inferSelect;

/** The same day a month on, or the month's last day when it is shorter (as PayFast is assumed to, §2 [U]). */
function nextMonth(day: string): string {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const next = new Date(Date.UTC(year, month, Math.min(date, last)));
  return next.toISOString().slice(0, 10);
}

/** The notification PayFast would post for a charge or a cancel of `row`. */
function notification(row: SimulatedRow, status: "COMPLETE" | "CANCELLED"): CardNotification {
  const paymentId = String(Date.now()) + String(randomBytes(3).readUIntBE(0, 3)).padStart(8, "0");
  const fields = {
    m_payment_id: row.paymentRef,
    pf_payment_id: paymentId,
    payment_status: status,
    item_name: row.itemName,
    amount_gross: randAmount(row.amountCents),
    custom_str1: row.customRef,
    token: row.token,
  };
  return {
    paymentId,
    token: row.token,
    checkoutRef: row.paymentRef,
    status,
    amountCents: status === "COMPLETE" ? row.amountCents : 0,
    fields,
  };
}

/**
 * The payment simulator's card subscriptions: what PayFast keeps at its end, kept in the shop's own
 * database so `npm start` shows the whole flow without keys. Its buttons (the simulator page) start
 * one, run the next month's charge, make the next charge fail, and cancel at the provider.
 */
export async function startSimulatedSubscription(
  db: Database,
  input: { paymentRef: string; customRef: string; itemName: string; amountCents: number; billingDate: string },
): Promise<CardNotification> {
  const [row] = await db
    .insert(simulatedSubscriptions)
    .values({
      token: randomUUID(),
      paymentRef: input.paymentRef,
      customRef: input.customRef,
      itemName: input.itemName,
      amountCents: input.amountCents,
      runDate: nextMonth(input.billingDate),
      charges: 1,
    })
    .returning();
  return notification(row!, "COMPLETE");
}

export async function findSimulatedSubscription(db: Database, token: string): Promise<SimulatedRow | undefined> {
  const [row] = await db.select().from(simulatedSubscriptions).where(eq(simulatedSubscriptions.token, token));
  return row;
}

/**
 * "Run next month's charge": the card is charged and PayFast's COMPLETE notification returned; a charge
 * set to fail sends nothing (PayFast sends no notification for a failed card) and the next month is tried.
 */
export async function runSimulatedCharge(
  db: Database,
  token: string,
): Promise<{ charged: true; notification: CardNotification } | { charged: false; reason: string }> {
  const row = await findSimulatedSubscription(db, token);
  if (!row) return { charged: false, reason: "There is no such subscription." };
  if (row.status !== "ACTIVE") return { charged: false, reason: `The subscription is ${row.status.toLowerCase()}.` };
  const [after] = await db
    .update(simulatedSubscriptions)
    .set({
      runDate: nextMonth(row.runDate),
      failNext: false,
      charges: row.failNext ? row.charges : sql`${simulatedSubscriptions.charges} + 1`,
      updatedAt: new Date(),
    })
    .where(eq(simulatedSubscriptions.token, token))
    .returning();
  if (row.failNext) return { charged: false, reason: "The card was declined; no notification was sent." };
  return { charged: true, notification: notification(after!, "COMPLETE") };
}

/** "Fail next charge". */
export async function failNextSimulatedCharge(db: Database, token: string): Promise<void> {
  await db
    .update(simulatedSubscriptions)
    .set({ failNext: true, updatedAt: new Date() })
    .where(eq(simulatedSubscriptions.token, token));
}

/** "Cancel at the provider": the buyer cancels in PayFast's own pages, and PayFast notifies CANCELLED. */
export async function cancelAtSimulator(db: Database, token: string): Promise<CardNotification | null> {
  const [row] = await db
    .update(simulatedSubscriptions)
    .set({ status: "CANCELLED", updatedAt: new Date() })
    .where(eq(simulatedSubscriptions.token, token))
    .returning();
  return row ? notification(row, "CANCELLED") : null;
}

/** The subscriptions API, answered from the simulator's records. */
export function simulatedSubscriptionsApi(db: Database): SubscriptionsApi {
  const existing = async (token: string) => {
    const row = await findSimulatedSubscription(db, token);
    if (!row) throw new SubscriptionApiError("The subscription could not be found.", 404);
    return row;
  };
  const set = async (token: string, values: Partial<SimulatedRow>) => {
    await existing(token);
    await db
      .update(simulatedSubscriptions)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(simulatedSubscriptions.token, token));
  };
  return {
    async fetch(token) {
      const row = await existing(token);
      return {
        token,
        active: row.status === "ACTIVE",
        statusText: row.status,
        amountCents: row.amountCents,
        runDate: row.runDate,
      };
    },
    cancel: (token) => set(token, { status: "CANCELLED" }),
    updateAmount: (token, amountCents) => set(token, { amountCents }),
    moveRunDate: (token, runDate) => set(token, { runDate }),
    // PayFast skips `cycles` charges; the simulator has no calendar, so its next charge is simply that much later.
    pause: async (token, cycles) => {
      const row = await existing(token);
      let runDate = row.runDate;
      for (let i = 0; i < cycles; i++) runDate = nextMonth(runDate);
      await set(token, { runDate });
    },
    unpause: (token) => set(token, { status: "ACTIVE" }),
  };
}
