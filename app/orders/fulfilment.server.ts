import { eq } from "drizzle-orm";
import { recordAudit } from "~/admin/audit.server";
import type { AppContext } from "~/context.server";
import { orders } from "~/db/schema";
import { shopContact } from "~/email/shop-contact.server";
import { orderTickets } from "~/tickets/issue.server";
import { orderPageAccessUpsert, orderPageUrl } from "./order-access.server";
import { queueOrderEmail } from "./order-email-queue.server";
import { customerConfirmationEmail } from "./order-emails.server";
import type { FulfilmentMethod } from "./fulfilment-methods";
import { markLines } from "./line-fulfilment.server";
import { recordOrderEvent } from "./order-history.server";

type Context = Pick<AppContext, "db" | "config" | "clock">;

/**
 * Marks every line still waiting (an order of one item: the order) with one press; the buyer is
 * emailed. A second press changes nothing. Per-line marking is markLines (issue 39).
 */
export async function markFulfilled(
  context: Context,
  orderId: string,
  method: FulfilmentMethod,
): Promise<"fulfilled" | "already" | "not-paid"> {
  const outcome = await markLines(context, orderId, { lineIds: "all", method });
  return outcome === "fulfilled" || outcome === "not-paid" ? outcome : "already";
}

/** The owner's private note on an order. */
export async function saveOwnerNote(context: Context, orderId: string, note: string): Promise<boolean> {
  const now = context.clock.now();
  return context.db.transaction(async (tx) => {
    const [before] = await tx
      .select({ note: orders.ownerNote, reference: orders.reference })
      .from(orders)
      .where(eq(orders.id, orderId))
      .for("update");
    if (!before) return false;
    if ((before.note ?? "") === note) return true;
    await tx
      .update(orders)
      .set({ ownerNote: note || null, updatedAt: now })
      .where(eq(orders.id, orderId));
    await recordOrderEvent(tx, orderId, "note", note ? "Note updated" : "Note removed", now);
    await recordAudit(
      tx,
      {
        action: "order.note",
        entity: "order",
        entityId: orderId,
        summary: `Updated the note on ${before.reference}`,
        before: { note: before.note },
        after: { note },
      },
      now,
    );
    return true;
  });
}

/**
 * Sends the confirmation email again. The key comes from the form the owner saw, so a double click
 * queues one email (the outbox's dedupe key).
 */
export async function resendConfirmation(
  context: Context,
  orderId: string,
  key: string,
): Promise<"queued" | "not-paid"> {
  const now = context.clock.now();
  return context.db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId));
    if (!order || !["paid", "partially_refunded"].includes(order.status)) return "not-paid" as const;
    await orderPageAccessUpsert(tx, context.config.sessionSecret, order.id, now);
    const orderPage = orderPageUrl(context.config.siteUrl, context.config.sessionSecret, order.id);
    const email = await customerConfirmationEmail(order, context.config.siteUrl, {
      tickets: await orderTickets(tx, order.id),
      contact: await shopContact(tx),
      now,
      orderPage,
    });
    const queued = await queueOrderEmail(tx, { ...email, dedupeKey: `${email.dedupeKey}:resend:${key}` }, now);
    if (queued) {
      await recordAudit(
        tx,
        {
          action: "order.resend",
          entity: "order",
          entityId: order.id,
          summary: `Resent the confirmation of ${order.reference}`,
        },
        now,
      );
    }
    return "queued" as const;
  });
}
