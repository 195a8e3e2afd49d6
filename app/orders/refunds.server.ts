import { and, eq, inArray, sql } from "drizzle-orm";
import { recordAudit } from "~/admin/audit.server";
import type { AppContext } from "~/context.server";
import { orders, refundLines, refunds } from "~/db/schema";
import { formatRand } from "~/lib/money";
import type { PaymentProvider } from "~/payments/provider";
import { paymentProvider } from "~/payments/providers.server";
import { recordOrderEvent } from "./order-history.server";
import { deliverSimulatedRefund } from "./simulator-actions.server";
import { findOrder } from "./orders.server";
import { priceLineRefund, type LineRefundAsk } from "./line-refunds.server";

export type RefundRequestResult =
  | { ok: true; state: "pending" | "succeeded" | "already-requested" }
  | { ok: false; error: string; field?: "amount" | "line" };

type Context = Pick<AppContext, "db" | "config" | "clock">;

/** What may still be refunded: what was charged, less what was refunded or is on its way back. */
async function refundableCents(
  tx: Pick<Context["db"], "select">,
  orderId: string,
  amountCents: number,
  refundedCents: number,
) {
  const [row] = await tx
    .select({ waiting: sql<number>`coalesce(sum(${refunds.amountCents}), 0)::int` })
    .from(refunds)
    .where(and(eq(refunds.orderId, orderId), inArray(refunds.status, ["requested", "pending"])));
  return amountCents - refundedCents - Number(row?.waiting ?? 0);
}

/**
 * The owner refunds all or part of a paid order through the payment provider. The key comes from
 * the form the owner saw, so a double click (or a retried post) finds the refund it already made and
 * does not ask the provider again; the provider's own idempotency key is the same key, as a second
 * guard. The result arrives by webhook: until then the order shows "refund pending".
 */
export async function requestRefund(
  context: Context,
  /** With `line`, the amount is what those units were charged (priceLineRefund); `amountCents` is not read. */
  input: { orderId: string; amountCents: number; restock: boolean; key: string; line?: LineRefundAsk },
  provider: PaymentProvider = paymentProvider(context.config),
): Promise<RefundRequestResult> {
  const now = context.clock.now();
  const claimed = await context.db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, input.orderId)).for("update");
    if (!order) return { kind: "error" as const, error: "This order does not exist." };
    // Looked up under the order's lock: a second press waits for the first and then finds its refund.
    const [existing] = await tx.select().from(refunds).where(eq(refunds.idempotencyKey, input.key));
    if (existing) return { kind: "existing" as const };
    if (order.status !== "paid" && order.status !== "partially_refunded") {
      return { kind: "error" as const, error: "Only a paid order can be refunded." };
    }
    if (!order.yocoCheckoutId) return { kind: "error" as const, error: "This order has no payment to refund." };
    const left = await refundableCents(tx, order.id, order.amountCents, order.refundedCents);
    const priced = input.line ? await priceLineRefund(tx, order, input.line, left) : null;
    if (priced && !priced.ok) return { kind: "error" as const, error: priced.error, field: "line" as const };
    const amountCents = priced?.ok ? priced.amountCents : input.amountCents;
    if (amountCents < 1 || amountCents > left) {
      return {
        kind: "error" as const,
        error:
          left > 0
            ? `Refund an amount from R 0.01 to ${formatRand(left)}.`
            : "Nothing is left to refund on this order.",
        field: "amount" as const,
      };
    }
    const [refund] = await tx
      .insert(refunds)
      .values({
        orderId: order.id,
        amountCents,
        restock: input.restock,
        idempotencyKey: input.key,
        createdAt: now,
      })
      .onConflictDoNothing({ target: refunds.idempotencyKey })
      .returning();
    if (!refund) return { kind: "existing" as const };
    if (priced?.ok) await tx.insert(refundLines).values({ ...priced.row, refundId: refund.id });
    const summary = `Refund of ${formatRand(amountCents)} requested${input.restock ? ", unit back on sale when it succeeds" : ""}`;
    await recordOrderEvent(tx, order.id, "refund", summary, now);
    await recordAudit(
      tx,
      {
        action: "order.refund",
        entity: "order",
        entityId: order.id,
        summary: `${summary} (${order.reference})`,
        after: { amountCents, restock: input.restock, ...(priced?.ok && { line: priced.row }) },
      },
      now,
    );
    return { kind: "new" as const, refund, order };
  });
  if (claimed.kind === "existing") return { ok: true, state: "already-requested" };
  if (claimed.kind === "error")
    return { ok: false, error: claimed.error, field: "field" in claimed ? claimed.field : undefined };

  const { refund, order } = claimed;
  let providerRefundId: string;
  try {
    const full = refund.amountCents === order.amountCents - order.refundedCents && order.refundedCents === 0;
    ({ refundId: providerRefundId } = await provider.refund(
      order.yocoCheckoutId!,
      refund.idempotencyKey,
      full ? undefined : refund.amountCents,
    ));
  } catch (error) {
    const reason = (error as Error).message.slice(0, 300);
    await context.db.transaction(async (tx) => {
      await tx
        .update(refunds)
        .set({ status: "failed", failureReason: reason, completedAt: context.clock.now() })
        .where(eq(refunds.id, refund.id));
      await recordOrderEvent(
        tx,
        order.id,
        "refund",
        `Refund of ${formatRand(refund.amountCents)} was refused: ${reason}`,
        context.clock.now(),
      );
    });
    return { ok: false, error: `The payment provider refused the refund: ${reason}` };
  }
  await context.db
    .update(refunds)
    .set({ status: "pending", providerRefundId })
    .where(and(eq(refunds.id, refund.id), eq(refunds.status, "requested")));
  if (provider.name === "simulator") {
    const current = await findOrder(context.db, order.id);
    if (current)
      await deliverSimulatedRefund(context, current, { refundId: providerRefundId, amountCents: refund.amountCents });
    return { ok: true, state: "succeeded" };
  }
  return { ok: true, state: "pending" };
}
